// The schema of warden.yaml: the organization, and the same relays, monitors, pages (with components, incidents and
// maintenance and boards), notification channels and escalation policies that the API writes, composed from the verbs'
// schemas; plus the rules that span the file.
import { z } from 'zod';
import { ESCALATION_LIMITS } from '../domain/alert.js';
import { BOARD_LIMITS } from '../domain/board.js';
import { stableKey } from '../domain/fields.js';
import { LIMITS } from '../domain/limits.js';
import { monitorLocationIssues, monitorPlacementIssues } from '../domain/monitor.js';
import { RUN_ON } from '../domain/monitor-type.js';
import { DEFAULT_ORGANIZATION_KEY } from '../domain/organization.js';
import { smtpSectionSchema } from '../notify/mail/smtp.js';
import { boardEntrySchema } from '../services/boards/schema.js';
import { componentCreateSchema } from '../services/components/schema.js';
import { policyEntrySchema } from '../services/escalation/put.js';
import { incidentEntrySchema } from '../services/incidents/schema.js';
import { maintenanceEntrySchema } from '../services/maintenance/schema.js';
import { monitorEntrySchema } from '../services/monitors/schema.js';
import { channelEntrySchema } from '../services/notifications/schema.js';
import { organizationInput } from '../services/organizations/put.js';
import { pageEntrySchema } from '../services/pages/schema.js';
import { relayEntrySchema } from '../services/relays/schema.js';
import { dependencyIssues } from './dependency-issues.js';
import { escalationIssues } from './escalation-issues.js';

/** The file gives a component's place by its position in the list. */
const componentSchema = componentCreateSchema.omit({ order: true });

const pageSchema = pageEntrySchema
  .extend({
    password: pageEntrySchema.shape.password.describe(
      'Protects every form of the page (at least 8 characters); use ${ENV_VAR}.',
    ),
    components: z.array(componentSchema).max(LIMITS.componentsPerPage).default([]),
    incidents: z.array(incidentEntrySchema).max(LIMITS.incidentsPerPage).default([]),
    maintenance: z.array(maintenanceEntrySchema).max(LIMITS.maintenancePerPage).default([]),
    boards: z
      .array(
        boardEntrySchema.extend({
          webhookUrl: boardEntrySchema.shape.webhookUrl.describe(
            'The Discord webhook of the channel the board lives in: a secret, use ${ENV_VAR}.',
          ),
        }),
      )
      .max(BOARD_LIMITS.perPage)
      .default([])
      .describe('Discord messages Warden keeps editing as the page changes (docs/boards.md).'),
  })
  .strict();

/**
 * Left out, the organization is not defaulted: applying the file would rename the one the dashboard named. With a
 * `name`, the file creates and manages the organization (its name and probe-target policy); with its `key` alone, it
 * adds to one made in the dashboard or by the API and manages none of its own fields.
 */
const organizationSchema = z
  .object(
    {
      key: stableKey()
        .optional()
        .describe(
          'The organization\'s key; "default" when left out. Alone (no name), the file adds its objects to the organization with this key and leaves its own fields to the dashboard.',
        ),
      name: organizationInput.shape.name
        .optional()
        .describe(
          'Set, the file creates the organization and manages its name (and probePrivateTargets): the dashboard can then no longer rename or delete it.',
        ),
      probePrivateTargets: organizationInput.shape.probePrivateTargets,
    },
    {
      error: (issue) =>
        issue.code === 'invalid_type' && issue.input === undefined
          ? 'required — e.g. `organization: { key: acme }` to add to an organization made in the dashboard, or `organization: { name: My Community }` to create and manage one'
          : undefined,
    },
  )
  .strict()
  .refine((o) => o.key !== undefined || o.name !== undefined, {
    path: ['name'],
    error: 'required — or the key alone of an organization made in the dashboard',
  })
  .refine((o) => o.probePrivateTargets === undefined || o.name !== undefined, {
    path: ['name'],
    error: 'probePrivateTargets is a field of the organization the file manages: give its name too',
  })
  .transform(({ key, ...rest }) => ({ key: key ?? DEFAULT_ORGANIZATION_KEY, ...rest }));

export const configFileSchema = z
  .object({
    organization: organizationSchema,
    relays: z.array(relayEntrySchema).max(LIMITS.relaysPerOrganization).default([]),
    monitors: z.array(monitorEntrySchema).max(LIMITS.monitorsPerOrganization).default([]),
    pages: z.array(pageSchema).max(LIMITS.pagesPerOrganization).default([]),
    notifications: z
      .array(channelEntrySchema)
      .max(LIMITS.notificationChannelsPerOrganization)
      .default([])
      .describe('Notification channels (docs/notifications.md); put secrets in ${ENV_VAR}.'),
    escalationPolicies: z
      .array(policyEntrySchema)
      .max(ESCALATION_LIMITS.policies)
      .default([])
      .describe(
        'Escalation policies (docs/notifications.md, "Escalation and acknowledgement"): step 1 to its channels when an alert opens, each next step if it is still unacknowledged after its afterMin.',
      ),
    smtp: smtpSectionSchema.optional(),
  })
  .strict()
  // The references are checked even when other fields failed (zod would skip them): one run of `config check` lists a
  // typo'd key, a bad port and a broken reference together. They read the file through a lenient outline.
  .superRefine(
    (file, ctx) =>
      referenceIssues(fileOutline.parse(file), (path, message) => ctx.addIssue({ code: 'custom', path, message })),
    {
      when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
    },
  );

/**
 * What the references read, from a file that may have failed elsewhere: a field that does not parse reads as absent,
 * an item that does not keeps its place (so paths stay true) and adds nothing. A monitor that failed keeps its key: a
 * bad port is not also "no monitor with key …" on the page naming it.
 */
const name = z.string().optional().catch(undefined);
const names = z.array(z.string()).optional().catch(undefined);
const list = <T extends z.ZodType>(item: T) => z.array(item.catch({} as z.output<T>)).catch([]);
const fileOutline = z.object({
  relays: list(z.object({ key: name, dependsOn: name })),
  notifications: list(z.object({ key: name })),
  escalationPolicies: list(z.object({ key: name, steps: list(z.object({ channels: names })), monitors: names })),
  monitors: list(
    z.object({
      key: name,
      notify: names,
      runOn: z.enum(RUN_ON).optional().catch(undefined),
      relay: name,
      dependsOn: name,
      locations: names,
      quorum: z.number().optional().catch(undefined),
    }),
  ),
  pages: list(
    z.object({
      slug: name,
      customDomain: name,
      notify: names,
      components: list(z.object({ key: name, name, monitor: name })),
      incidents: list(z.object({ components: names })),
      maintenance: list(z.object({ components: names, monitors: names })),
      boards: list(z.object({ key: name, components: names })),
    }),
  ),
});

/** The rules that span the file, in the order of the file, each object's problems together. */
function referenceIssues(
  file: z.output<typeof fileOutline>,
  issue: (path: PropertyKey[], message: string) => void,
): void {
  const relayKeys = keySet();
  file.relays.forEach((relay, i) => {
    if (relayKeys.repeats(relay.key)) issue(['relays', i, 'key'], `duplicate relay key "${relay.key}"`);
  });
  // Channels first: monitors and pages name them (`notify`).
  const channelKeys = keySet();
  file.notifications.forEach((channel, i) => {
    if (channelKeys.repeats(channel.key))
      issue(['notifications', i, 'key'], `duplicate notification channel key "${channel.key}"`);
  });
  const named = (path: PropertyKey[], keys: readonly string[] | undefined) =>
    keys?.forEach((key, n) => {
      if (!channelKeys.has(key))
        issue([...path, 'notify', n], `no notification channel with key "${key}" in notifications`);
    });
  const monitorKeys = keySet();
  file.monitors.forEach((monitor, i) => {
    named(['monitors', i], monitor.notify);
    if (monitorKeys.repeats(monitor.key)) issue(['monitors', i, 'key'], `duplicate monitor key "${monitor.key}"`);
    // Where the monitor runs is unknown when its type or runOn failed: nothing to check its relay against.
    const runOn = monitor.runOn;
    if (runOn !== undefined)
      for (const placement of [
        ...monitorPlacementIssues({ runOn, relay: monitor.relay }, (key) => relayKeys.has(key)),
        ...monitorLocationIssues({ runOn, ...monitor }, (key) => relayKeys.has(key)),
      ])
        issue(['monitors', i, placement.path], placement.message);
  });
  dependencyIssues(file, issue);
  const slugs = keySet();
  const domains = keySet();
  file.pages.forEach((page, p) => {
    if (slugs.repeats(page.slug)) issue(['pages', p, 'slug'], `duplicate page slug "${page.slug}"`);
    named(['pages', p], page.notify);
    if (domains.repeats(page.customDomain))
      issue(['pages', p, 'customDomain'], `"${page.customDomain}" is used by another page`);
    const componentKeys = keySet();
    page.components.forEach((component, c) => {
      const key = component.key ?? component.name;
      if (componentKeys.repeats(key))
        issue(['pages', p, 'components', c, 'name'], `duplicate component "${key}" on this page`);
      if (component.monitor !== undefined && !monitorKeys.has(component.monitor))
        issue(['pages', p, 'components', c, 'monitor'], `no monitor with key "${component.monitor}"`);
    });
    const boardKeys = keySet();
    page.boards.forEach((board, b) => {
      if (boardKeys.repeats(board.key)) issue(['pages', p, 'boards', b, 'key'], `duplicate board key "${board.key}"`);
    });
    const componentNames = new Set(page.components.flatMap((c) => [c.key ?? c.name, c.name]));
    for (const [field, items] of [
      ['incidents', page.incidents],
      ['maintenance', page.maintenance],
      ['boards', page.boards],
    ] as const)
      items.forEach((item, i) => {
        item.components?.forEach((ref, r) => {
          if (!componentNames.has(ref))
            issue(['pages', p, field, i, 'components', r], `no component "${ref}" on this page`);
        });
      });
    page.maintenance.forEach((item, i) => {
      item.monitors?.forEach((key, r) => {
        if (!monitorKeys.has(key)) issue(['pages', p, 'maintenance', i, 'monitors', r], `no monitor with key "${key}"`);
      });
    });
  });
  escalationIssues(file.escalationPolicies, { channel: channelKeys.has, monitor: monitorKeys.has }, issue);
}

/** A set of keys that tells, as each is added, whether it was there already (an absent key is never a repeat). */
function keySet(): { repeats(key: string | undefined): boolean; has(key: string): boolean } {
  const seen = new Set<string>();
  return {
    repeats(key) {
      if (key === undefined) return false;
      const repeat = seen.has(key);
      seen.add(key);
      return repeat;
    },
    has: (key) => seen.has(key),
  };
}

export type ConfigFile = z.output<typeof configFileSchema>;

/** The JSON Schema of warden.yaml, for editors (`warden config schema`). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configFileSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return { ...schema, title: 'Warden configuration (warden.yaml)' };
}
