// The messages of the live stream (WS /s/{slug}/live), as zod schemas: the one description docs, OpenAPI and tests read.
import { z } from 'zod';
import {
  pageStateSchema,
  snapshotComponentSchema,
  snapshotIncidentSchema,
  snapshotMaintenanceSchema,
  snapshotSchema,
} from '../../domain/snapshot.js';

const at = z
  .number()
  .int()
  .describe('epoch milliseconds: when the server saw the change (the generatedAt of the snapshot it comes from)');

/** A component as the stream sends it: the snapshot's component without its 90-day strip and charts (fetch the page for those). */
export const liveComponentSchema = snapshotComponentSchema.omit({ days: true, charts: true });

export const snapshotMessageSchema = z
  .object({ type: z.literal('snapshot'), at, snapshot: snapshotSchema })
  .describe(
    'Sent first on every connection, and again whenever the page changes in shape (components added, removed or renamed; title or description edited). Replace everything you hold.',
  );

export const monitorUpdateMessageSchema = z
  .object({
    type: z.literal('monitor.update'),
    at,
    component: liveComponentSchema,
    previousState: pageStateSchema.describe(
      "the component's state before; equal to component.state when only live data or uptime changed",
    ),
  })
  .describe(
    "A component's state, monitor state, live data (players, latency, version, MOTD, message, checkedAt) or uptime changed.",
  );

export const overallMessageSchema = z
  .object({
    type: z.literal('overall'),
    at,
    state: pageStateSchema,
    label: z.string(),
    previous: z.object({ state: pageStateSchema, label: z.string() }),
  })
  .describe("The page's overall state or label changed.");

export const totalsMessageSchema = z
  .object({
    type: z.literal('totals'),
    at,
    players: z.number().int().nullable(),
    maxPlayers: z.number().int().nullable(),
  })
  .describe('Players online over the page changed.');

export const INCIDENT_CHANGES = ['opened', 'updated', 'resolved', 'removed'] as const;

export const incidentMessageSchema = z
  .object({
    type: z.literal('incident'),
    at,
    change: z
      .enum(INCIDENT_CHANGES)
      .describe(
        'opened: new and active; updated: new update, status, impact, title or components; resolved: now resolved; removed: deleted, or older than the 14 days a page shows',
      ),
    incident: snapshotIncidentSchema,
  })
  .describe('An incident of the page changed.');

export const MAINTENANCE_CHANGES = ['scheduled', 'started', 'updated', 'ended', 'removed'] as const;

export const maintenanceMessageSchema = z
  .object({
    type: z.literal('maintenance'),
    at,
    change: z
      .enum(MAINTENANCE_CHANGES)
      .describe(
        'scheduled: a new upcoming window; started: now in progress; updated: edited; ended: its window is over; removed: deleted or cancelled',
      ),
    maintenance: snapshotMaintenanceSchema,
  })
  .describe('A maintenance window of the page changed.');

export const liveMessageSchema = z
  .discriminatedUnion('type', [
    snapshotMessageSchema,
    monitorUpdateMessageSchema,
    overallMessageSchema,
    totalsMessageSchema,
    incidentMessageSchema,
    maintenanceMessageSchema,
  ])
  .describe('One text frame of the live stream: a JSON object with `type` and `at` (epoch ms).');

export type LiveComponent = z.infer<typeof liveComponentSchema>;
export type SnapshotMessage = z.infer<typeof snapshotMessageSchema>;
export type IncidentMessage = z.infer<typeof incidentMessageSchema>;
export type MaintenanceMessage = z.infer<typeof maintenanceMessageSchema>;
export type LiveMessage = z.infer<typeof liveMessageSchema>;
