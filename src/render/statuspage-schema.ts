// The answers of Statuspage's public API v2 that Warden gives (docs/statuspage-compat.md): the renderer's types and the
// OpenAPI document both come from these schemas.
import { z } from 'zod';

const time = z
  .string()
  .describe("ISO 8601 with milliseconds and the page's UTC offset, e.g. 2026-11-20T15:05:00.000+01:00");

export const statuspageComponentStatusSchema = z.enum([
  'operational',
  'degraded_performance',
  'partial_outage',
  'major_outage',
  'under_maintenance',
]);
export const statuspageIndicatorSchema = z.enum(['none', 'minor', 'major', 'critical', 'maintenance']);

export const statuspagePageSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string().describe("the page's canonical URL"),
  time_zone: z.string().describe('IANA name'),
  updated_at: time.describe('the last change the snapshot knows of'),
});

export const statuspageStatusSchema = z.object({
  indicator: statuspageIndicatorSchema,
  description: z.string().describe("Warden's overall label, e.g. “Partial outage: 1 of 6 components down”"),
});

export const statuspageComponentSchema = z.object({
  id: z.string().describe("Warden's component id; grp_ and 12 hex digits for a group"),
  name: z.string(),
  status: statuspageComponentStatusSchema,
  created_at: time.describe('the start of the first day of the 90-day history with checks'),
  updated_at: time,
  position: z.number().int().describe('1-based, among the top level or within the group'),
  description: z.string().nullable(),
  showcase: z.boolean(),
  start_date: z
    .string()
    .nullable()
    .describe('YYYY-MM-DD: the first day with checks; null for groups and components without any'),
  group_id: z.string().nullable(),
  page_id: z.string(),
  group: z.boolean(),
  only_show_if_degraded: z.boolean(),
  components: z.array(z.string()).optional().describe("a group's members"),
});

export const statuspageUpdateSchema = z.object({
  id: z.string(),
  status: z.string(),
  body: z.string(),
  incident_id: z.string(),
  created_at: time,
  updated_at: time,
  display_at: time,
  affected_components: z.null().describe('Warden does not record per-update component changes'),
  deliver_notifications: z.boolean().describe("whether the page's subscribers got it"),
  custom_tweet: z.null(),
  tweet_id: z.null(),
});

export const statuspageIncidentSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(['investigating', 'identified', 'monitoring', 'resolved']),
  created_at: time,
  updated_at: time,
  monitoring_at: time.nullable(),
  resolved_at: time.nullable(),
  impact: z.enum(['none', 'minor', 'major', 'critical']),
  shortlink: z.string().describe("the page's URL"),
  started_at: time,
  page_id: z.string(),
  incident_updates: z.array(statuspageUpdateSchema).describe('newest first'),
  components: z.array(statuspageComponentSchema),
});

export const statuspageMaintenanceSchema = statuspageIncidentSchema.extend({
  status: z.enum(['scheduled', 'in_progress']),
  impact: z.literal('maintenance'),
  scheduled_for: time,
  scheduled_until: time,
});

export const statuspageSummarySchema = z.object({
  page: statuspagePageSchema,
  components: z.array(statuspageComponentSchema),
  incidents: z.array(statuspageIncidentSchema).describe('unresolved'),
  scheduled_maintenances: z.array(statuspageMaintenanceSchema).describe('in progress and upcoming'),
  status: statuspageStatusSchema,
});

/** The parts the answers share, by the name the OpenAPI document gives them. */
export const STATUSPAGE_PARTS = {
  StatuspagePage: statuspagePageSchema,
  StatuspageStatus: statuspageStatusSchema,
  StatuspageComponent: statuspageComponentSchema,
  StatuspageIncidentUpdate: statuspageUpdateSchema,
  StatuspageIncident: statuspageIncidentSchema,
  StatuspageMaintenance: statuspageMaintenanceSchema,
};

/** Each endpoint's answer. */
export const STATUSPAGE_SCHEMAS = {
  summary: statuspageSummarySchema,
  status: z.object({ page: statuspagePageSchema, status: statuspageStatusSchema }),
  components: z.object({ page: statuspagePageSchema, components: z.array(statuspageComponentSchema) }),
  incidents: z.object({ page: statuspagePageSchema, incidents: z.array(statuspageIncidentSchema) }),
  unresolved: z.object({ page: statuspagePageSchema, incidents: z.array(statuspageIncidentSchema) }),
  maintenances: z.object({ page: statuspagePageSchema, scheduled_maintenances: z.array(statuspageMaintenanceSchema) }),
  upcoming: z.object({ page: statuspagePageSchema, scheduled_maintenances: z.array(statuspageMaintenanceSchema) }),
  active: z.object({ page: statuspagePageSchema, scheduled_maintenances: z.array(statuspageMaintenanceSchema) }),
} as const;

export type StatuspageComponentStatus = z.infer<typeof statuspageComponentStatusSchema>;
export type StatuspageIndicator = z.infer<typeof statuspageIndicatorSchema>;
export type StatuspagePage = z.infer<typeof statuspagePageSchema>;
export type StatuspageComponent = z.infer<typeof statuspageComponentSchema>;
export type StatuspageUpdate = z.infer<typeof statuspageUpdateSchema>;
export type StatuspageIncident = z.infer<typeof statuspageIncidentSchema>;
export type StatuspageMaintenance = z.infer<typeof statuspageMaintenanceSchema>;
