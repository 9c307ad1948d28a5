// The schema of warden.yaml: organization, relays, monitors, pages with components, incidents and maintenance.
import { z } from 'zod';
import { MONITOR_TYPES, type MonitorType, type RunOn } from '../domain/monitor-type.js';
import { probeDefinition } from '../probes/registry.js';

export const KEY_MESSAGE = 'expected 1 to 64 lowercase letters, digits, "-" or "_", starting with a letter or digit';
export const stableKey = () => z.string({ error: KEY_MESSAGE }).regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: KEY_MESSAGE });

export const MONITOR_LIMITS = {
  intervalSec: { min: 10, max: 86_400, default: 60 },
  timeoutMs: { min: 500, max: 120_000, default: 10_000 },
  retries: { min: 0, max: 10, default: 1 },
} as const;

/** Limits on how much one config file (or one organization) may declare. */
export const CONFIG_LIMITS = { relays: 1000, monitors: 10_000, pages: 1000, componentsPerPage: 500 } as const;

/** A trimmed, non-empty string of at most `max` characters. */
export const text = (max: number) => z.string().trim().min(1, { error: 'must not be empty' }).max(max);

/** A point in time: ISO 8601 with an offset, or epoch milliseconds; always epoch milliseconds once parsed. */
export const timestamp = z
  .union([z.number().int().min(0), z.iso.datetime({ offset: true })], {
    error: 'expected an ISO 8601 date-time such as 2026-01-31T22:00:00Z, or epoch milliseconds',
  })
  .transform((value) => (typeof value === 'number' ? value : Date.parse(value)));

const intIn = (min: number, max: number, unit: string) => {
  const message = `expected an integer from ${min} to ${max}${unit}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
};

/**
 * Monitor fields shared by warden.yaml and the API, without defaults: a partial update (PATCH) must not reset
 * the fields it leaves out, so each whole-object schema adds its defaults itself.
 */
export const monitorFields = {
  key: stableKey(),
  name: text(200),
  relay: stableKey().describe('Key of the relay that runs this monitor; required when runOn is relay.'),
  intervalSec: intIn(MONITOR_LIMITS.intervalSec.min, MONITOR_LIMITS.intervalSec.max, ' seconds').describe('Seconds between checks.'),
  timeoutMs: intIn(MONITOR_LIMITS.timeoutMs.min, MONITOR_LIMITS.timeoutMs.max, ' milliseconds').describe(
    'A check that takes longer fails with "timed out".',
  ),
  enabled: z.boolean(),
  retries: intIn(MONITOR_LIMITS.retries.min, MONITOR_LIMITS.retries.max, '').describe(
    'Failed checks tolerated before the monitor goes down (1 means the second failure in a row).',
  ),
  degradedLatencyMs: intIn(1, 600_000, ' milliseconds').describe('A passing check slower than this shows the monitor as degraded.'),
};

const monitorBase = {
  key: monitorFields.key,
  name: monitorFields.name,
  relay: monitorFields.relay.optional(),
  intervalSec: monitorFields.intervalSec.default(MONITOR_LIMITS.intervalSec.default),
  timeoutMs: monitorFields.timeoutMs.default(MONITOR_LIMITS.timeoutMs.default),
  enabled: monitorFields.enabled.default(true),
  retries: monitorFields.retries.default(MONITOR_LIMITS.retries.default),
  degradedLatencyMs: monitorFields.degradedLatencyMs.optional(),
  pushToken: z
    .string()
    .regex(/^wdp_[A-Za-z0-9_-]{16,128}$/, { error: 'expected a push token starting with wdp_ (at least 16 characters after it)' })
    .optional()
    .describe('Heartbeat monitors: the push token; one is generated when absent.'),
};

function monitorVariant<T extends MonitorType>(type: T) {
  const definition = probeDefinition(type);
  const places = definition.runsOn as readonly [RunOn, ...RunOn[]];
  return z
    .object({
      ...monitorBase,
      type: z.literal(type),
      runOn: z
        .enum(places as [RunOn, ...RunOn[]], {
          error: `a ${type} monitor runs on ${places.join(' or ')}`,
        })
        .default(places[0])
        .describe(`Where the monitor runs: ${places.join(', ')}.`),
      // Push-only types may omit config entirely when all its fields have defaults.
      config: definition.probe === null ? definition.config.prefault({}) : definition.config,
    })
    .strict();
}

export type MonitorVariant = ReturnType<typeof monitorVariant>;

/** One object schema per monitor type, in MONITOR_TYPES order: the pieces of monitorSchema (and of the API's monitor body). */
export const monitorVariants: MonitorVariant[] = MONITOR_TYPES.map((type) => monitorVariant(type));

/** A union discriminated by `type`, with one message listing the types when `type` is wrong. */
export function monitorUnion<V extends z.ZodObject>(variants: V[]) {
  return z.discriminatedUnion('type', variants as unknown as [V, ...V[]], {
    error: (issue) => (issue.code === 'invalid_union' ? `expected one of ${MONITOR_TYPES.join(', ')}` : undefined),
  });
}

export const monitorSchema = monitorUnion(monitorVariants);

/** Component fields shared by warden.yaml and the API (no defaults, see monitorFields). */
export const componentFields = {
  key: stableKey().describe('Stable key within the page; defaults to the name.'),
  name: text(200),
  description: text(2000),
  group: text(200),
  monitor: stableKey().describe('Key of the monitor whose state the component shows.'),
};

const componentSchema = z
  .object({
    key: componentFields.key.optional(),
    name: componentFields.name,
    description: componentFields.description.optional(),
    group: componentFields.group.optional(),
    monitor: componentFields.monitor.optional(),
  })
  .strict();

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export const INCIDENT_IMPACTS = ['none', 'minor', 'major', 'critical'] as const;

/** Limits on what one incident or maintenance window may hold. */
export const INCIDENT_LIMITS = { components: 500, updates: 200, messageChars: 10_000 } as const;

const componentRefs = () =>
  z.array(text(200)).max(INCIDENT_LIMITS.components).describe('Keys or names of affected components.');

/** Incident fields shared by warden.yaml and the API (no defaults, see monitorFields). */
export const incidentFields = {
  key: stableKey(),
  title: text(300),
  status: z.enum(INCIDENT_STATUSES),
  impact: z.enum(INCIDENT_IMPACTS),
  startedAt: timestamp,
  resolvedAt: timestamp,
  components: componentRefs(),
  message: text(INCIDENT_LIMITS.messageChars),
};

const incidentSchema = z
  .object({
    key: incidentFields.key,
    title: incidentFields.title,
    status: incidentFields.status.default('investigating'),
    impact: incidentFields.impact.default('minor'),
    startedAt: incidentFields.startedAt,
    resolvedAt: incidentFields.resolvedAt.optional(),
    components: incidentFields.components.default([]),
    updates: z
      .array(z.object({ at: timestamp, status: incidentFields.status, message: incidentFields.message }).strict())
      .max(INCIDENT_LIMITS.updates)
      .default([]),
  })
  .strict();

/** Maintenance fields shared by warden.yaml and the API (no defaults, see monitorFields). */
export const maintenanceFields = {
  key: stableKey(),
  title: text(300),
  description: text(10_000),
  startsAt: timestamp,
  endsAt: timestamp,
  components: componentRefs(),
};

const maintenanceSchema = z
  .object({
    key: maintenanceFields.key,
    title: maintenanceFields.title,
    description: maintenanceFields.description.optional(),
    startsAt: maintenanceFields.startsAt,
    endsAt: maintenanceFields.endsAt,
    components: maintenanceFields.components.default([]),
  })
  .strict()
  .refine((m) => m.endsAt > m.startsAt, { path: ['endsAt'], error: 'must be after startsAt' });

/** Page fields shared by warden.yaml and the API (no defaults, see monitorFields). */
export const pageFields = {
  slug: stableKey(),
  title: text(200),
  description: text(2000),
  customDomain: z
    .string()
    .toLowerCase()
    .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{1,63}$/, {
      error: 'expected a host name such as status.example.com',
    }),
  password: z.string().min(1).max(256),
  aiPolicy: z.enum(['allow', 'disallow']).describe('disallow keeps the page out of MCP and llms.txt.'),
};

const pageSchema = z
  .object({
    slug: pageFields.slug,
    title: pageFields.title,
    description: pageFields.description.optional(),
    customDomain: pageFields.customDomain.optional(),
    password: pageFields.password.optional().describe('Protects every form of the page; use ${ENV_VAR}.'),
    aiPolicy: pageFields.aiPolicy.default('allow'),
    components: z.array(componentSchema).max(CONFIG_LIMITS.componentsPerPage).default([]),
    incidents: z.array(incidentSchema).max(1000).default([]),
    maintenance: z.array(maintenanceSchema).max(1000).default([]),
  })
  .strict();

export const configFileSchema = z
  .object({
    organization: z.object({ key: stableKey().default('default'), name: text(200) }).strict(),
    relays: z
      .array(
        z
          .object({
            key: stableKey(),
            name: text(200),
            token: z
              .string()
              .regex(/^wdr_[A-Za-z0-9_-]{16,128}$/, { error: 'expected a relay token starting with wdr_' })
              .optional()
              .describe('Optional: fix the relay token (use ${ENV_VAR}); otherwise issue one with `warden relays token`.'),
          })
          .strict(),
      )
      .max(CONFIG_LIMITS.relays)
      .default([]),
    monitors: z.array(monitorSchema).max(CONFIG_LIMITS.monitors).default([]),
    pages: z.array(pageSchema).max(CONFIG_LIMITS.pages).default([]),
  })
  .strict()
  .superRefine((file, ctx) => {
    const relayKeys = new Set<string>();
    file.relays.forEach((relay, i) => {
      if (relayKeys.has(relay.key)) ctx.addIssue({ code: 'custom', path: ['relays', i, 'key'], message: `duplicate relay key "${relay.key}"` });
      relayKeys.add(relay.key);
    });
    const monitorKeys = new Set<string>();
    file.monitors.forEach((monitor, i) => {
      if (monitorKeys.has(monitor.key))
        ctx.addIssue({ code: 'custom', path: ['monitors', i, 'key'], message: `duplicate monitor key "${monitor.key}"` });
      monitorKeys.add(monitor.key);
      for (const issue of monitorPlacementIssues(monitor, (key) => relayKeys.has(key)))
        ctx.addIssue({ code: 'custom', path: ['monitors', i, issue.path], message: issue.message });
      if (monitor.pushToken !== undefined && monitor.runOn !== 'push')
        ctx.addIssue({ code: 'custom', path: ['monitors', i, 'pushToken'], message: 'only allowed for push monitors' });
    });
    const slugs = new Set<string>();
    const domains = new Set<string>();
    file.pages.forEach((page, p) => {
      if (slugs.has(page.slug)) ctx.addIssue({ code: 'custom', path: ['pages', p, 'slug'], message: `duplicate page slug "${page.slug}"` });
      slugs.add(page.slug);
      if (page.customDomain !== undefined) {
        if (domains.has(page.customDomain))
          ctx.addIssue({ code: 'custom', path: ['pages', p, 'customDomain'], message: `"${page.customDomain}" is used by another page` });
        domains.add(page.customDomain);
      }
      const componentKeys = new Set<string>();
      page.components.forEach((component, c) => {
        const key = component.key ?? component.name;
        if (componentKeys.has(key))
          ctx.addIssue({ code: 'custom', path: ['pages', p, 'components', c, 'name'], message: `duplicate component "${key}" on this page` });
        componentKeys.add(key);
        if (component.monitor !== undefined && !monitorKeys.has(component.monitor))
          ctx.addIssue({ code: 'custom', path: ['pages', p, 'components', c, 'monitor'], message: `no monitor with key "${component.monitor}"` });
      });
      const names = new Set(page.components.flatMap((c) => [c.key ?? c.name, c.name]));
      for (const [field, list] of [['incidents', page.incidents], ['maintenance', page.maintenance]] as const)
        list.forEach((item, i) => {
          item.components.forEach((ref, r) => {
            if (!names.has(ref))
              ctx.addIssue({ code: 'custom', path: ['pages', p, field, i, 'components', r], message: `no component "${ref}" on this page` });
          });
        });
    });
  });

/** Where a monitor runs and its relay must agree, and the relay must exist: the same rule for warden.yaml and the API. */
export function monitorPlacementIssues(
  monitor: { runOn: RunOn; relay?: string | null | undefined },
  relayExists: (key: string) => boolean,
): { path: 'relay'; message: string }[] {
  const relay = monitor.relay ?? undefined;
  if (monitor.runOn === 'relay' && relay === undefined) return [{ path: 'relay', message: 'required when runOn is relay' }];
  if (monitor.runOn !== 'relay' && relay !== undefined) return [{ path: 'relay', message: 'only allowed when runOn is relay' }];
  if (relay !== undefined && !relayExists(relay)) return [{ path: 'relay', message: `no relay with key "${relay}"` }];
  return [];
}

export type ConfigFile = z.output<typeof configFileSchema>;
export type MonitorConfigEntry = ConfigFile['monitors'][number];
export type PageConfigEntry = ConfigFile['pages'][number];

/** The JSON Schema of warden.yaml, for editors (`warden config schema`). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configFileSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return { ...schema, title: 'Warden configuration (warden.yaml)' };
}
