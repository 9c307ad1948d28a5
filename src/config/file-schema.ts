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

const text = (max: number) => z.string().trim().min(1, { error: 'must not be empty' }).max(max);

const timestamp = z
  .union([z.number().int().min(0), z.iso.datetime({ offset: true })], {
    error: 'expected an ISO 8601 date-time such as 2026-01-31T22:00:00Z, or epoch milliseconds',
  })
  .transform((value) => (typeof value === 'number' ? value : Date.parse(value)));

const intIn = (min: number, max: number, unit: string) => {
  const message = `expected an integer from ${min} to ${max}${unit}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
};

const monitorBase = {
  key: stableKey(),
  name: text(200),
  relay: stableKey().optional().describe('Key of the relay that runs this monitor; required when runOn is relay.'),
  intervalSec: intIn(MONITOR_LIMITS.intervalSec.min, MONITOR_LIMITS.intervalSec.max, ' seconds')
    .default(MONITOR_LIMITS.intervalSec.default)
    .describe('Seconds between checks.'),
  timeoutMs: intIn(MONITOR_LIMITS.timeoutMs.min, MONITOR_LIMITS.timeoutMs.max, ' milliseconds')
    .default(MONITOR_LIMITS.timeoutMs.default)
    .describe('A check that takes longer fails with "timed out".'),
  enabled: z.boolean().default(true),
  retries: intIn(MONITOR_LIMITS.retries.min, MONITOR_LIMITS.retries.max, '')
    .default(MONITOR_LIMITS.retries.default)
    .describe('Failed checks tolerated before the monitor goes down (1 means the second failure in a row).'),
  degradedLatencyMs: intIn(1, 600_000, ' milliseconds')
    .optional()
    .describe('A passing check slower than this shows the monitor as degraded.'),
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

const monitorVariants = MONITOR_TYPES.map((type) => monitorVariant(type));

export const monitorSchema = z.discriminatedUnion(
  'type',
  monitorVariants as unknown as [ReturnType<typeof monitorVariant>, ...ReturnType<typeof monitorVariant>[]],
  { error: (issue) => (issue.code === 'invalid_union' ? `expected one of ${MONITOR_TYPES.join(', ')}` : undefined) },
);

const componentSchema = z
  .object({
    key: stableKey().optional().describe('Stable key within the page; defaults to the name.'),
    name: text(200),
    description: text(2000).optional(),
    group: text(200).optional(),
    monitor: stableKey().optional().describe('Key of the monitor whose state the component shows.'),
  })
  .strict();

const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
const INCIDENT_IMPACTS = ['none', 'minor', 'major', 'critical'] as const;

const incidentSchema = z
  .object({
    key: stableKey(),
    title: text(300),
    status: z.enum(INCIDENT_STATUSES).default('investigating'),
    impact: z.enum(INCIDENT_IMPACTS).default('minor'),
    startedAt: timestamp,
    resolvedAt: timestamp.optional(),
    components: z.array(text(200)).max(500).default([]).describe('Keys or names of affected components.'),
    updates: z
      .array(z.object({ at: timestamp, status: z.enum(INCIDENT_STATUSES), message: text(10_000) }).strict())
      .max(200)
      .default([]),
  })
  .strict();

const maintenanceSchema = z
  .object({
    key: stableKey(),
    title: text(300),
    description: text(10_000).optional(),
    startsAt: timestamp,
    endsAt: timestamp,
    components: z.array(text(200)).max(500).default([]).describe('Keys or names of affected components.'),
  })
  .strict()
  .refine((m) => m.endsAt > m.startsAt, { path: ['endsAt'], error: 'must be after startsAt' });

const pageSchema = z
  .object({
    slug: stableKey(),
    title: text(200),
    description: text(2000).optional(),
    customDomain: z
      .string()
      .toLowerCase()
      .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{1,63}$/, {
        error: 'expected a host name such as status.example.com',
      })
      .optional(),
    password: z.string().min(1).max(256).optional().describe('Protects every form of the page; use ${ENV_VAR}.'),
    aiPolicy: z.enum(['allow', 'disallow']).default('allow').describe('disallow keeps the page out of MCP and llms.txt.'),
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
      if (monitor.runOn === 'relay' && monitor.relay === undefined)
        ctx.addIssue({ code: 'custom', path: ['monitors', i, 'relay'], message: 'required when runOn is relay' });
      if (monitor.runOn !== 'relay' && monitor.relay !== undefined)
        ctx.addIssue({ code: 'custom', path: ['monitors', i, 'relay'], message: 'only allowed when runOn is relay' });
      if (monitor.relay !== undefined && !relayKeys.has(monitor.relay))
        ctx.addIssue({ code: 'custom', path: ['monitors', i, 'relay'], message: `no relay with key "${monitor.relay}"` });
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

export type ConfigFile = z.output<typeof configFileSchema>;
export type MonitorConfigEntry = ConfigFile['monitors'][number];
export type PageConfigEntry = ConfigFile['pages'][number];

/** The JSON Schema of warden.yaml, for editors (`warden config schema`). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configFileSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return { ...schema, title: 'Warden configuration (warden.yaml)' };
}
