// Finding an object an organization owns by the reference a caller gave: its id, or its key.
import { NotFoundError } from '../domain/errors.js';
import { organizationOf, type ServiceContext } from './context.js';

/** A repository's finders of one kind of object, by id and by key within an organization. */
export interface OwnedFinders<T> {
  findById(id: string): Promise<T | undefined>;
  findByKey(organizationId: string, key: string): Promise<T | undefined>;
}

/**
 * The organization's object by key, or by id — which may also be its key (an id wins over a key that happens to read
 * the same). Another organization's is "not found", named `entity`.
 */
export async function requireOwned<T extends { organizationId: string }>(
  ctx: ServiceContext,
  entity: string,
  finders: OwnedFinders<T>,
  ref: { id: string } | { key: string },
): Promise<T> {
  const organizationId = organizationOf(ctx);
  const ours = (o: T | undefined) => (o && o.organizationId === organizationId ? o : undefined);
  const found =
    'id' in ref
      ? (ours(await finders.findById(ref.id)) ?? ours(await finders.findByKey(organizationId, ref.id)))
      : ours(await finders.findByKey(organizationId, ref.key));
  if (!found) throw new NotFoundError(entity, 'id' in ref ? ref.id : ref.key);
  return found;
}
