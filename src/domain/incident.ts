// Incidents (with their timeline) and maintenance windows of a page: the shapes the store keeps, the fields and rules of every writer.
import { z } from 'zod';
import { stableKey, text, timestamp } from './fields.js';
import { LIMITS } from './limits.js';
import type { Ownership } from './ownership.js';
import type { RecurrenceSlot } from './recurrence.js';

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export const INCIDENT_IMPACTS = ['none', 'minor', 'major', 'critical'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];

export interface IncidentUpdate {
  id: string;
  status: IncidentStatus;
  message: string;
  at: number;
}

export interface Incident extends Ownership {
  id: string;
  pageId: string;
  key: string | null;
  title: string;
  status: IncidentStatus;
  impact: IncidentImpact;
  startedAt: number;
  resolvedAt: number | null;
  componentIds: string[];
  updates: IncidentUpdate[];
}

export type IncidentSpec = Pick<
  Incident,
  'key' | 'title' | 'status' | 'impact' | 'startedAt' | 'resolvedAt' | 'componentIds'
> & {
  updates: Omit<IncidentUpdate, 'id'>[];
};

export interface Maintenance extends Ownership {
  id: string;
  pageId: string;
  key: string | null;
  title: string;
  description: string | null;
  startsAt: number;
  endsAt: number;
  /** Slots that repeat the window: its occurrences start between startsAt and endsAt; null for a one-off window. */
  recurrence: RecurrenceSlot[] | null;
  componentIds: string[];
  /** Monitors covered directly, wherever they are shown. Page-wide: neither components nor monitors named. */
  monitorIds: string[];
  /** Whether its start and end (each occurrence's) are announced to channels and subscribers; quiet or not, it shows. */
  announce: boolean;
}

export type MaintenanceSpec = Pick<
  Maintenance,
  'key' | 'title' | 'description' | 'startsAt' | 'endsAt' | 'recurrence' | 'componentIds' | 'monitorIds' | 'announce'
>;

export function incidentSpecChanged(current: Incident, spec: IncidentSpec): boolean {
  const simple = (i: IncidentSpec) =>
    JSON.stringify([
      i.title,
      i.status,
      i.impact,
      i.startedAt,
      i.resolvedAt,
      [...i.componentIds].sort(),
      i.updates.map((u) => [u.status, u.message, u.at]),
    ]);
  return simple(current) !== simple(spec);
}

export function maintenanceSpecChanged(current: Maintenance, spec: MaintenanceSpec): boolean {
  const simple = (m: MaintenanceSpec) =>
    JSON.stringify([
      m.title,
      m.description,
      m.startsAt,
      m.endsAt,
      m.recurrence,
      [...m.componentIds].sort(),
      [...m.monitorIds].sort(),
      m.announce,
    ]);
  return simple(current) !== simple(spec);
}

/** A window ends after it starts; only two valid times are compared, so a wrong startsAt is reported once, on startsAt. */
export const ENDS_AFTER_START = 'must be after startsAt';
export function endsAfterStart(startsAt: unknown, endsAt: unknown): boolean {
  return typeof startsAt !== 'number' || typeof endsAt !== 'number' || endsAt > startsAt;
}

const componentRefs = () =>
  z.array(text(200)).max(LIMITS.componentsPerIncident).describe('Keys or names of affected components.');

/** Incident fields shared by warden.yaml and the API, without defaults. */
export const incidentFields = {
  key: stableKey(),
  title: text(300),
  status: z.enum(INCIDENT_STATUSES),
  impact: z.enum(INCIDENT_IMPACTS),
  startedAt: timestamp,
  resolvedAt: timestamp,
  components: componentRefs(),
  message: text(LIMITS.messageChars),
};

/** Maintenance fields shared by warden.yaml and the API, without defaults. */
export const maintenanceFields = {
  key: stableKey(),
  title: text(300),
  description: text(10_000),
  startsAt: timestamp,
  endsAt: timestamp,
  components: componentRefs(),
  monitors: z
    .array(text(200))
    .max(LIMITS.monitorsPerMaintenance)
    .describe(
      "Keys of the organization's monitors the window covers, wherever they are shown: their alerts are quiet and the components showing them on this page show maintenance.",
    ),
  announce: z
    .boolean()
    .describe(
      "Whether the window's start and end (each occurrence's, for a recurring one) are announced to the organization's channels and the page's subscribers. false: a quiet window, e.g. a daily restart; it still shows on the page and its monitors still keep quiet.",
    ),
};
