// The audit log's one way in: a write and the entry saying who made it, committed together (or, for a write that
// waits on the network, the entry right after it).
import type { Actor, AuditEntry } from '../../domain/account.js';
import { newId } from '../../domain/ids.js';
import { organizationOf, type ServiceContext, withTransaction } from '../context.js';

/** The object a write touched: its id and a name to show (its key, slug or title) at the time. */
export interface AuditedObject {
  id: string | null;
  label: string | null;
}

/** What a write records, declared once by whoever offers it (an API operation, a CLI command). */
export interface AuditedWrite<R> {
  /** `monitor.create`, `member.remove`: the object type, a dot, what was done. */
  action: string;
  /** The object once the write is done, from what was asked and what the verb returned. */
  object(result: R): AuditedObject;
  /** The object before the write, read in the same transaction (a delete's label: afterwards it is gone). */
  before?(ctx: ServiceContext): Promise<Partial<AuditedObject> | undefined>;
  /** What changed: field names and counts, never values of secrets. */
  detail?(result: R): Record<string, unknown> | null;
  /**
   * The write waits on the network (DNS, a channel's receiver, a mail server): it runs outside a transaction, which
   * would hold the database for as long, and its entry is recorded once it is done.
   */
  outside?: boolean;
}

/** Whom an entry names when the context says nobody: Warden itself, as the configuration. */
const NOBODY: Actor = { kind: 'system', name: 'config' };

/** Runs the write and records its entry in the same transaction (joining the one running, if any); nothing is recorded when it fails. */
export async function audited<R>(
  ctx: ServiceContext,
  write: AuditedWrite<NoInfer<R>>,
  run: (ctx: ServiceContext) => Promise<R>,
): Promise<R> {
  const once = async (tx: ServiceContext) => {
    const before = write.before ? await write.before(tx) : undefined;
    const result = await run(tx);
    const after = write.object(result);
    const object = { id: after.id ?? before?.id ?? null, label: after.label ?? before?.label ?? null };
    return { result, entry: { action: write.action, ...object, detail: write.detail ? write.detail(result) : null } };
  };
  if (write.outside) {
    const { result, entry } = await once(ctx);
    await recordAudit(ctx, entry);
    return result;
  }
  return withTransaction(ctx, async (tx) => {
    const { result, entry } = await once(tx);
    await recordAudit(tx, entry);
    return result;
  });
}

/** Appends one entry for the context's organization and actor; the object type is the action's first part. */
export async function recordAudit(
  ctx: ServiceContext,
  entry: { action: string; id: string | null; label: string | null; detail: Record<string, unknown> | null },
): Promise<void> {
  const actor = ctx.actor ?? NOBODY;
  const row: AuditEntry = {
    id: newId('aud'),
    organizationId: organizationOf(ctx),
    at: ctx.clock.now(),
    actorKind: actor.kind,
    ...actorNaming(actor),
    action: entry.action,
    objectType: entry.action.slice(0, entry.action.indexOf('.')),
    objectId: entry.id,
    objectLabel: entry.label === null ? null : entry.label.slice(0, 200),
    detail: entry.detail,
  };
  await ctx.store.audit.append(row);
}

function actorNaming(actor: Actor): { actorId: string; actorName: string } {
  switch (actor.kind) {
    case 'user':
      return { actorId: actor.userId, actorName: actor.name };
    case 'apiKey':
      return { actorId: actor.apiKeyId, actorName: actor.name };
    case 'system':
      return { actorId: actor.name, actorName: actor.name };
  }
}

/** The names of the fields a body sets, for an entry's detail: never their values. */
export function changedFields(body: unknown): Record<string, unknown> | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const fields = Object.keys(body).sort();
  return fields.length === 0 ? null : { fields };
}
