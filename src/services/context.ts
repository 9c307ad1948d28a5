// What every verb gets: `verb(ctx, input)`, with ctx the store, bus, clock and logger, and whom it acts for.
import type { z } from 'zod';
import type { Bus } from '../bus/bus.js';
import type { WardenEvent } from '../bus/events.js';
import type { Actor } from '../domain/account.js';
import type { Clock } from '../domain/clock.js';
import { ConflictError, ValidationError } from '../domain/errors.js';
import { formatIssuePath } from '../domain/issue-path.js';
import type { ManagedBy } from '../domain/ownership.js';
import type { Logger } from '../logger.js';
import type { WardenMetrics } from '../metrics/recorder.js';
import type { SmtpSettings } from '../notify/mail/smtp.js';
import type { SystemMail } from '../notify/mail/system-mail.js';
import type { NotificationPublisher } from '../notify/outbox/outbox.js';
import type { Store } from '../store/index.js';

export interface ServiceContext {
  store: Store;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  /** The organization the caller acts for (an API key's, the CLI's --org); verbs on an organization's objects need it. */
  organizationId?: string | undefined;
  /** Who acts (a signed-in user, an API key, or Warden itself): what the audit log records. Absent: Warden itself. */
  actor?: Actor | undefined;
  /**
   * Who writes: the API and the CLI (`api`, the default) may not change what warden.yaml manages; config sync
   * (`config`) may, and what it writes becomes managed by the file.
   */
  writer?: ManagedBy | undefined;
  /** The service's public address (WARDEN_BASE_URL): its host can never be a page's custom domain. */
  baseUrl?: string | undefined;
  /**
   * The notification outbox: a verb whose write is an event (an incident posted, a relay back) publishes it on its
   * transaction, so the alert commits with the change or not at all. Absent in tools that send nothing (the CLI's checks).
   */
  notify?: NotificationPublisher | undefined;
  /** The system SMTP server (WARDEN_SMTP_URL or warden.yaml's `smtp:`): page subscribers' mail; absent, nobody subscribes by email. */
  smtp?: SmtpSettings | undefined;
  /**
   * What email channels without a host of their own may do with the system server (WARDEN_SMTP_TENANTS, its limits,
   * who confirmed); absent, they mail every recipient.
   */
  systemMail?: SystemMail | undefined;
  /** Prometheus metrics (WARDEN_METRICS_TOKEN or _PORT): what the verbs and runners count; absent, nothing is counted. */
  metrics?: WardenMetrics | undefined;
}

/** The organization a verb acts on; a verb called without one is a programming error, not a user's. */
export function organizationOf(ctx: ServiceContext): string {
  if (ctx.organizationId === undefined) throw new Error('this verb acts on an organization: the context has none');
  return ctx.organizationId;
}

export function writerOf(ctx: ServiceContext): ManagedBy {
  return ctx.writer ?? 'api';
}

/**
 * Runs `work` in one transaction of the store, joining the one running if there is. Events published inside wait
 * for the commit (and are dropped on a rollback), so nobody reloads a change that is not there yet or never will be.
 * A write that published any moves the change counter in the same transaction: the other processes on the database
 * see it at their next poll (security.changePollMs), this one at once through the events.
 */
export async function withTransaction<T>(ctx: ServiceContext, work: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  if (ctx.store.inTransaction) return work(ctx);
  const held: WardenEvent[] = [];
  const bus: Bus = { publish: (event) => void held.push(event), subscribe: ctx.bus.subscribe, close: async () => {} };
  const result = await ctx.store.transaction(async (store) => {
    const out = await work({ ...ctx, store, bus });
    if (held.length > 0) await store.changes.bump();
    return out;
  });
  for (const event of held) ctx.bus.publish(event);
  ctx.notify?.committed();
  return result;
}

/** Runs a write, turning a unique-constraint race (two requests creating the same key at once) into a 409. */
export async function uniquely<T>(ctx: ServiceContext, write: () => Promise<T>, conflict: string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (ctx.store.isUniqueViolation(error)) throw new ConflictError(conflict);
    throw error;
  }
}

/** A verb's input checked against its schema: a ValidationError naming each wrong field (`name`, `config.port`). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ValidationError(parsed.error.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message })));
}
