// Picks the organization a CLI command acts on: the one named, or the only one there is.
import { NotFoundError, ValidationError } from '../../domain/errors.js';
import type { Db } from '../../store/connect.js';
import { findOrganizationByKey, listOrganizations, type Organization } from '../../store/organizations.js';

export async function resolveOrganization(db: Db, key?: string): Promise<Organization> {
  if (key !== undefined) {
    const found = await findOrganizationByKey(db, key);
    if (!found) throw new NotFoundError('organization', key);
    return found;
  }
  const all = await listOrganizations(db);
  if (all.length === 1) return all[0] as Organization;
  if (all.length === 0)
    throw new NotFoundError('organization', '(none yet: start the server or run `warden config apply` first)');
  throw new ValidationError(
    [{ path: 'org', message: `choose one of: ${all.map((o) => o.key).join(', ')}` }],
    'There are several organizations; pass --org KEY.',
  );
}
