// A page's keyed children (components, incidents, maintenance windows): added under the page's cap, put by key from
// warden.yaml, deleted; each write tells the page's caches.
import { ConflictError } from '../../domain/errors.js';
import { assertWritable, type ManagedBy } from '../../domain/ownership.js';
import type { Page } from '../../domain/page.js';
import type { Store } from '../../store/index.js';
import { requireOnPage } from '../components/refs.js';
import { type ServiceContext, uniquely, withTransaction, writerOf } from '../context.js';
import { type PutOutcome, type PutSteps, putByKey } from '../put.js';
import { changed } from './write.js';

/** What the page's child is called in a refusal and a 404. */
type ChildKind = 'component' | 'incident' | 'maintenance' | 'board';

/**
 * Adds a keyed object to a page: the page's cap, the key free on the page (a race on it is a 409 too), then the page's
 * caches told. `insert` writes the object and reads it back.
 */
export async function addToPage<T>(
  ctx: ServiceContext,
  page: Page,
  add: {
    key: string | null;
    taken: string;
    count(): Promise<number>;
    max: number;
    full: string;
    exists(key: string): Promise<unknown>;
    insert(): Promise<T>;
  },
): Promise<T> {
  const item = await uniquely(
    ctx,
    async () => {
      if ((await add.count()) >= add.max) throw new ConflictError(add.full);
      if (add.key !== null && (await add.exists(add.key))) throw new ConflictError(add.taken);
      return add.insert();
    },
    add.taken,
  );
  changed(ctx, page);
  return item;
}

/** warden.yaml's object on a page, by key (putByKey): an update is written through `children`, and the page's caches told. */
export function putOnPage<T extends { id: string; managedBy: ManagedBy }, S>(
  ctx: ServiceContext,
  page: Page,
  children: {
    findById(id: string): Promise<T | undefined>;
    update(id: string, spec: S, managedBy: ManagedBy, now: number): Promise<void>;
  },
  steps: Omit<PutSteps<T, S>, 'update'>,
): Promise<{ value: T; outcome: PutOutcome }> {
  return putByKey(ctx, {
    ...steps,
    async update(current, spec, writer) {
      await children.update(current.id, spec, writer, ctx.clock.now());
      changed(ctx, page);
      return (await children.findById(current.id)) ?? current;
    },
  });
}

/** Deletes the page's child with this id (another page's is not found), unless the writer may not; the page's caches are told. */
export async function deleteFromPage<
  T extends { id: string; key: string | null; pageId: string; managedBy: ManagedBy },
>(
  ctx: ServiceContext,
  { slug, id }: { slug: string; id: string },
  kind: ChildKind,
  children: (store: Store) => { findById(id: string): Promise<T | undefined>; delete(id: string): Promise<void> },
): Promise<void> {
  // In a transaction like every write: the change counter moves with it (other processes follow).
  await withTransaction(ctx, async (tx) => {
    const { page, item } = await requireOnPage(tx, slug, id, kind, children(tx.store).findById);
    assertWritable(item, writerOf(tx), `${kind} "${item.key ?? item.id}" of page "${slug}"`);
    await children(tx.store).delete(item.id);
    changed(tx, page);
  });
}
