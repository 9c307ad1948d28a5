// Revokes an API key of the organization; it stops working at once.
import { NotFoundError } from '../../domain/errors.js';
import { revokeApiKey as revokeStored } from '../../store/api-keys.js';
import type { Db } from '../../store/connect.js';

export async function revokeApiKey(db: Db, organizationId: string, id: string, now: number): Promise<void> {
  if (!(await revokeStored(db, organizationId, id, now))) throw new NotFoundError('API key', id);
}
