// Draft incidents: a page's setting (after how long down, drafted or published at once), the drafts it prepares, and
// the rules that decide when a component's spell is due one and what the draft says.
import { z } from 'zod';
import type { RecurrenceSlot } from './recurrence.js';

export const DRAFT_PUBLISH_MODES = ['draft', 'auto'] as const;
export type DraftPublishMode = (typeof DRAFT_PUBLISH_MODES)[number];
export const DRAFT_STATUSES = ['draft', 'published', 'discarded'] as const;
export type DraftStatus = (typeof DRAFT_STATUSES)[number];
export type DraftDiscardReason = 'recovered' | 'operator';

/** A page's draft incidents: off (null) unless it opts in. */
export interface DraftIncidentSetting {
  /** Minutes a component must have been down before its draft is prepared. */
  afterMin: number;
  /** draft: the operator publishes it; auto: it is published at once (and told to subscribers). */
  publish: DraftPublishMode;
}

export const DRAFT_AFTER_MIN_DEFAULT = 10;

/** What one scan did: drafts prepared, incidents published at once (auto), drafts discarded as recovered. */
export interface DraftScanOutcome {
  drafted: number;
  published: number;
  discarded: number;
}

export const draftIncidentSettingSchema = z
  .object({
    afterMin: z
      .number()
      .int()
      .min(1)
      .max(1440)
      .default(DRAFT_AFTER_MIN_DEFAULT)
      .describe('Minutes a component must have been down (major outage) before its incident is prepared; 1 to 1440.'),
    publish: z
      .enum(DRAFT_PUBLISH_MODES)
      .default('draft')
      .describe(
        'draft: a draft waits for an operator to publish it (never public before); auto: the incident is published at once and told to subscribers.',
      ),
  })
  .strict();

export interface IncidentDraft {
  id: string;
  organizationId: string;
  pageId: string;
  componentId: string;
  /** When the component's monitor went down: the spell the draft is about (one draft per spell). */
  downSince: number;
  title: string;
  message: string;
  status: DraftStatus;
  discardedReason: DraftDiscardReason | null;
  /** The incident it became, once published. */
  incidentId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A component shown on a page that drafts incidents, whose monitor is down now. */
export interface DownComponent {
  pageId: string;
  organizationId: string;
  setting: DraftIncidentSetting;
  componentId: string;
  componentKey: string;
  componentName: string;
  /** The component's monitor, and its own expected restarts (during one it is under maintenance). */
  monitorId: string;
  expectedRestart: readonly RecurrenceSlot[] | null;
  downSince: number;
}

/** Whether a component's spell has lasted long enough for its draft. */
export function draftDue(down: DownComponent, now: number): boolean {
  return now - down.downSince >= down.setting.afterMin * 60_000;
}

/** What a prepared draft says: a title naming the component and the first update of its timeline. */
export function draftText(componentName: string): { title: string; message: string } {
  return {
    title: `${componentName} is down`,
    message: `${componentName} is not responding. We are investigating.`,
  };
}

export function parseDraftSetting(json: string | null): DraftIncidentSetting | null {
  return json === null ? null : (JSON.parse(json) as DraftIncidentSetting);
}
