// What every verb gets: `verb(ctx, input)`, with ctx the store, bus, clock and logger, and whom it acts for.
import type { z } from 'zod';
import type { Bus } from '../bus/bus.js';
import type { WardenEvent } from '../bus/events.js';
import type { Actor } from '../domain/account.js';
import type { Clock } from '../domain/clock.js';
import { ConflictError, ValidationError } from '../domain/errors.js';
import { formatIssuePath } from '../domain/issue-path.js';
import { assertWritable, type ManagedBy } from '../domain/ownership.js';
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

/** What every verb's context is made of, held by the composition root; `baseUrl` read when a context is made. */
export interface ServiceParts {
  store: Store;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  baseUrl?: string | (() => string) | undefined;
  notify?: NotificationPublisher | undefined;
  smtp?: SmtpSettings | undefined;
  systemMail?: SystemMail | undefined;
  metrics?: WardenMetrics | undefined;
}

/** For whom a context acts: the caller's organization, who they are, who writes, and the request's logger. */
export interface Caller {
  organizationId?: string | undefined;
  actor?: Actor | undefined;
  writer?: ManagedBy | undefined;
  logger?: Logger | undefined;
}

/**
 * A verb's context made field by field from the parts and the caller: nothing else that the parts' holder carries (a
 * cache, a limiter, the app's settings) reaches the verbs through it.
 */
export function serviceContext(parts: ServiceParts, caller: Caller = {}): ServiceContext {
  const context: ServiceContext = {
    store: parts.store,
    bus: parts.bus,
    clock: parts.clock,
    logger: caller.logger ?? parts.logger,
    ...(caller.organizationId !== undefined ? { organizationId: caller.organizationId } : {}),
    ...(caller.actor !== undefined ? { actor: caller.actor } : {}),
    ...(caller.writer !== undefined ? { writer: caller.writer } : {}),
    ...(parts.notify ? { notify: parts.notify } : {}),
    ...(parts.smtp ? { smtp: parts.smtp } : {}),
    ...(parts.systemMail ? { systemMail: parts.systemMail } : {}),
    ...(parts.metrics ? { metrics: parts.metrics } : {}),
  };
  const { baseUrl } = parts;
  // The composition root's address is known once the server listens: read at each use, not when the context is made.
  if (typeof baseUrl === 'function') Object.defineProperty(context, 'baseUrl', { get: baseUrl, enumerable: true });
  else if (baseUrl !== undefined) context.baseUrl = baseUrl;
  return context;
}

/** The organization a verb acts on; a verb called without one is a programming error, not a user's. */
export function organizationOf(ctx: ServiceContext): string {
  if (ctx.organizationId === undefined) throw new Error('this verb acts on an organization: the context has none');
  return ctx.organizationId;
}

export function writerOf(ctx: ServiceContext): ManagedBy {
  return ctx.writer ?? 'api';
}

/** The writer of this call, once it may change `object`: one warden.yaml manages answers 409 to any other writer. */
export function writerFor(ctx: ServiceContext, object: { managedBy: ManagedBy }, label: string): ManagedBy {
  const writer = writerOf(ctx);
  assertWritable(object, writer, label);
  return writer;
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
  const bus: Bus = {
    publish: (event) => void held.push(event),
    subscribe: ctx.bus.subscribe,
    follow: ctx.bus.follow,
    close: async () => {},
  };
  const result = await ctx.store.transaction(async (store) => {
    const out = await work({ ...ctx, store, bus });
    if (held.length > 0) await store.changes.bump();
    return out;
  });
  for (const event of held) ctx.bus.publish(event);
  ctx.notify?.committed();
  return result;
}

/**
 * withTransaction holding `name` (store.exclusive) for the whole transaction: two processes running the same work
 * (a cluster's instances applying one config file at start) run it one after the other.
 */
export function withExclusiveTransaction<T>(
  ctx: ServiceContext,
  name: string,
  work: (ctx: ServiceContext) => Promise<T>,
): Promise<T> {
  return withTransaction(ctx, async (tx) => {
    await tx.store.exclusive(name);
    return work(tx);
  });
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

/** A verb that reads, as routes, the CLI and MCP call it: its input checked against `schema` (parseInput), then `work`. */
export function readVerb<S extends z.ZodType, R>(
  schema: S,
  work: (ctx: ServiceContext, input: z.output<S>) => Promise<R>,
): (ctx: ServiceContext, input: z.input<S>) => Promise<R> {
  return async (ctx, input) => work(ctx, parseInput(schema, input));
}

/**
 * A write verb as routes, the CLI and MCP call it: its input checked against `schema` (parseInput), then `work` with
 * the parsed input in one transaction (withTransaction), like every write: the change counter moves with it, so other
 * processes follow.
 */
export function writeVerb<S extends z.ZodType, R>(
  schema: S,
  work: (tx: ServiceContext, input: z.output<S>) => Promise<R>,
): (ctx: ServiceContext, input: z.input<S>) => Promise<R> {
  return async (ctx, input) => {
    const parsed = parseInput(schema, input);
    return withTransaction(ctx, (tx) => work(tx, parsed));
  };
}

/** A verb's input checked against its schema: a ValidationError naming each wrong field (`name`, `config.port`). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ValidationError(
    parsed.error.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message })),
  );
}
