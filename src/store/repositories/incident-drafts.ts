// Draft incidents: the components of drafting pages that are down now, the drafts (one per component and spell,
// the unique key makes a second insert a no-op), and their settling: published or discarded, once.
import type { Selectable } from 'kysely';
import {
  type DownComponent,
  type DraftDiscardReason,
  type DraftStatus,
  type IncidentDraft,
  parseDraftSetting,
} from '../../domain/incident-draft.js';
import type { RecurrenceSlot } from '../../domain/recurrence.js';
import type { Db, IncidentDraftsTable } from '../tables.js';
import { fromColumns, toColumns } from './rows.js';

/** A draft still waiting, with the state of its component's monitor now (null: the component lost its monitor). */
export interface WaitingDraft {
  draft: IncidentDraft;
  monitor: { state: string; stateSince: number; enabled: boolean } | null;
}

export interface IncidentDraftRepository {
  /** Components (with a monitor, enabled and down now) of the pages that draft incidents. */
  listDownComponents(): Promise<DownComponent[]>;
  /** Whether an open incident of the page names the component already. */
  hasOpenIncident(pageId: string, componentId: string): Promise<boolean>;
  /** Inserts a draft unless its component's spell has one already; whether it was inserted. */
  insert(draft: Omit<IncidentDraft, 'createdAt' | 'updatedAt'>, now: number): Promise<boolean>;
  /** Every draft still waiting, with its component's monitor now. */
  listWaiting(): Promise<WaitingDraft[]>;
  /** A page's drafts of this status, newest first. */
  list(pageId: string, status: DraftStatus, limit: number): Promise<IncidentDraft[]>;
  findById(id: string): Promise<IncidentDraft | undefined>;
  /**
   * Settles a waiting draft: published (with its incident) or discarded (with why); false when it was settled
   * already (another process, another click).
   */
  settle(
    id: string,
    outcome: { status: 'published'; incidentId: string } | { status: 'discarded'; reason: DraftDiscardReason },
    now: number,
  ): Promise<boolean>;
}

const FIELDS = [
  'id',
  'organizationId',
  'pageId',
  'componentId',
  'downSince',
  'title',
  'message',
  'status',
  'discardedReason',
  'incidentId',
] as const;

const toDraft = (r: Selectable<IncidentDraftsTable>): IncidentDraft => ({
  ...fromColumns(r, [...FIELDS, 'createdAt', 'updatedAt']),
  downSince: Number(r.down_since),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export function incidentDraftRepository(db: Db): IncidentDraftRepository {
  return {
    async listDownComponents() {
      const rows = await db
        .selectFrom('components')
        .innerJoin('pages', 'pages.id', 'components.page_id')
        .innerJoin('monitors', 'monitors.id', 'components.monitor_id')
        .select([
          'pages.id as page_id',
          'pages.organization_id',
          'pages.draft_incidents',
          'components.id as component_id',
          'components.key',
          'components.name',
          'monitors.id as monitor_id',
          'monitors.expected_restart',
          'monitors.state_since',
        ])
        .where('pages.draft_incidents', 'is not', null)
        .where('monitors.enabled', '=', 1)
        .where('monitors.state', '=', 'down')
        .orderBy('components.id')
        .execute();
      return rows.flatMap((r) => {
        const setting = parseDraftSetting(r.draft_incidents);
        return setting
          ? [
              {
                pageId: r.page_id,
                organizationId: r.organization_id,
                setting,
                componentId: r.component_id,
                componentKey: r.key,
                componentName: r.name,
                monitorId: r.monitor_id,
                expectedRestart:
                  r.expected_restart === null ? null : (JSON.parse(r.expected_restart) as RecurrenceSlot[]),
                downSince: Number(r.state_since),
              },
            ]
          : [];
      });
    },
    async hasOpenIncident(pageId, componentId) {
      const row = await db
        .selectFrom('incidents')
        .innerJoin('incident_components', 'incident_components.incident_id', 'incidents.id')
        .select('incidents.id')
        .where('incidents.page_id', '=', pageId)
        .where('incidents.resolved_at', 'is', null)
        .where('incident_components.component_id', '=', componentId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async insert(draft, now) {
      const result = await db
        .insertInto('incident_drafts')
        .values({ ...toColumns(draft, FIELDS), created_at: now, updated_at: now })
        .onConflict((oc) => oc.columns(['component_id', 'down_since']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async listWaiting() {
      const rows = await db
        .selectFrom('incident_drafts')
        .leftJoin('components', 'components.id', 'incident_drafts.component_id')
        .leftJoin('monitors', 'monitors.id', 'components.monitor_id')
        .selectAll('incident_drafts')
        .select(['monitors.state as monitor_state', 'monitors.state_since', 'monitors.enabled'])
        .where('incident_drafts.status', '=', 'draft')
        .execute();
      return rows.map((r) => ({
        draft: toDraft(r),
        monitor:
          r.monitor_state === null
            ? null
            : { state: r.monitor_state, stateSince: Number(r.state_since), enabled: r.enabled === 1 },
      }));
    },
    async list(pageId, status, limit) {
      const rows = await db
        .selectFrom('incident_drafts')
        .selectAll()
        .where('page_id', '=', pageId)
        .where('status', '=', status)
        .orderBy('down_since', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(toDraft);
    },
    async findById(id) {
      const row = await db.selectFrom('incident_drafts').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toDraft(row);
    },
    async settle(id, outcome, now) {
      const result = await db
        .updateTable('incident_drafts')
        .set({
          status: outcome.status,
          incident_id: outcome.status === 'published' ? outcome.incidentId : null,
          discarded_reason: outcome.status === 'discarded' ? outcome.reason : null,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('status', '=', 'draft')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
