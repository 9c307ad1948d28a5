// The schema of warden.yaml: the organization, and the same relays, monitors, pages (with components, incidents and
// maintenance) and notification channels that the API writes, composed from the verbs' schemas; plus the rules that span the file.
import { z } from 'zod';
import { LIMITS } from '../domain/limits.js';
import { monitorPlacementIssues } from '../domain/monitor.js';
import { smtpSectionSchema } from '../notify/smtp.js';
import { componentCreateSchema } from '../services/components/schema.js';
import { incidentEntrySchema } from '../services/incidents/schema.js';
import { maintenanceEntrySchema } from '../services/maintenance/schema.js';
import { monitorEntrySchema } from '../services/monitors/schema.js';
import { channelEntrySchema } from '../services/notifications/schema.js';
import { organizationInput } from '../services/organizations/put.js';
import { pageEntrySchema } from '../services/pages/schema.js';
import { relayEntrySchema } from '../services/relays/schema.js';

/** The file gives a component's place by its position in the list. */
const componentSchema = componentCreateSchema.omit({ order: true });

const pageSchema = pageEntrySchema
  .extend({
    password: pageEntrySchema.shape.password.describe('Protects every form of the page (at least 8 characters); use ${ENV_VAR}.'),
    components: z.array(componentSchema).max(LIMITS.componentsPerPage).default([]),
    incidents: z.array(incidentEntrySchema).max(LIMITS.incidentsPerPage).default([]),
    maintenance: z.array(maintenanceEntrySchema).max(LIMITS.maintenancePerPage).default([]),
  })
  .strict();

export const configFileSchema = z
  .object({
    organization: organizationInput,
    relays: z.array(relayEntrySchema).max(LIMITS.relaysPerOrganization).default([]),
    monitors: z.array(monitorEntrySchema).max(LIMITS.monitorsPerOrganization).default([]),
    pages: z.array(pageSchema).max(LIMITS.pagesPerOrganization).default([]),
    notifications: z
      .array(channelEntrySchema)
      .max(LIMITS.notificationChannelsPerOrganization)
      .default([])
      .describe('Notification channels (docs/notifications.md); put secrets in ${ENV_VAR}.'),
    smtp: smtpSectionSchema.optional(),
  })
  .strict()
  .superRefine((file, ctx) => {
    // Problems are reported in the order of the file, each object's together.
    const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const relayKeys = keySet();
    file.relays.forEach((relay, i) => {
      if (relayKeys.repeats(relay.key)) issue(['relays', i, 'key'], `duplicate relay key "${relay.key}"`);
    });
    // Channels first: monitors and pages name them (`notify`).
    const channelKeys = keySet();
    file.notifications.forEach((channel, i) => {
      if (channelKeys.repeats(channel.key)) issue(['notifications', i, 'key'], `duplicate notification channel key "${channel.key}"`);
    });
    const named = (path: PropertyKey[], keys: readonly string[] | undefined) =>
      keys?.forEach((key, n) => {
        if (!channelKeys.has(key)) issue([...path, 'notify', n], `no notification channel with key "${key}" in notifications`);
      });
    const monitorKeys = keySet();
    file.monitors.forEach((monitor, i) => {
      named(['monitors', i], monitor.notify);
      if (monitorKeys.repeats(monitor.key)) issue(['monitors', i, 'key'], `duplicate monitor key "${monitor.key}"`);
      for (const placement of monitorPlacementIssues(monitor, (key) => relayKeys.has(key))) issue(['monitors', i, placement.path], placement.message);
    });
    const slugs = keySet();
    const domains = keySet();
    file.pages.forEach((page, p) => {
      if (slugs.repeats(page.slug)) issue(['pages', p, 'slug'], `duplicate page slug "${page.slug}"`);
      named(['pages', p], page.notify);
      if (page.customDomain !== undefined && domains.repeats(page.customDomain))
        issue(['pages', p, 'customDomain'], `"${page.customDomain}" is used by another page`);
      const componentKeys = keySet();
      page.components.forEach((component, c) => {
        const key = component.key ?? component.name;
        if (componentKeys.repeats(key)) issue(['pages', p, 'components', c, 'name'], `duplicate component "${key}" on this page`);
        if (component.monitor !== undefined && !monitorKeys.has(component.monitor))
          issue(['pages', p, 'components', c, 'monitor'], `no monitor with key "${component.monitor}"`);
      });
      const names = new Set(page.components.flatMap((c) => [c.key ?? c.name, c.name]));
      for (const [field, list] of [['incidents', page.incidents], ['maintenance', page.maintenance]] as const)
        list.forEach((item, i) => {
          item.components.forEach((ref, r) => {
            if (!names.has(ref)) issue(['pages', p, field, i, 'components', r], `no component "${ref}" on this page`);
          });
        });
    });
  });

/** A set of keys that tells, as each is added, whether it was there already. */
function keySet(): { repeats(key: string): boolean; has(key: string): boolean } {
  const seen = new Set<string>();
  return {
    repeats(key) {
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
