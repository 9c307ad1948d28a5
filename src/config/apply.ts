// Applies warden.yaml through the verbs, in one transaction: the file gets the same caps, checks and events as the API.
import { WardenError } from '../domain/errors.js';
import type { Organization } from '../domain/organization.js';
import { recordAudit } from '../services/audit/record.js';
import { deleteBoard, putBoard } from '../services/boards/write.js';
import { deleteComponent, putComponent } from '../services/components/write.js';
import { type ServiceContext, withExclusiveTransaction } from '../services/context.js';
import { deletePolicy } from '../services/escalation/policies.js';
import { putPolicy } from '../services/escalation/put.js';
import { deleteIncident, putIncident } from '../services/incidents/write.js';
import { deleteMaintenance, putMaintenance } from '../services/maintenance/write.js';
import { deleteMonitor, putMonitor } from '../services/monitors/write.js';
import { deleteChannel, putChannel } from '../services/notifications/write.js';
import { organizationInventory } from '../services/organizations/inventory.js';
import { putOrganization, referencedOrganization } from '../services/organizations/put.js';
import { type AdoptedOrganization, recordAdoption } from '../services/organizations/record-adoption.js';
import { deletePage, putPage } from '../services/pages/write.js';
import { deleteRelay, putRelay } from '../services/relays/write.js';
import type { ConfigFile } from './file-schema.js';
import { type DeleteStep, type PlanKind, type PlanStep, type PutEntry, planConfig } from './plan.js';

export interface SyncReport {
  organization: Organization;
  /** "monitor lobby", "page acme", … */
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: number;
  /**
   * Push monitors whose token was generated now (created without `pushToken`), with the token: its only appearance,
   * since only its hash is stored. `config apply` prints their push URLs, the server logs them once at start-up.
   */
  generatedPushTokens: { monitor: string; token: string }[];
  /** Ids of pages whose content or components changed. */
  touchedPageIds: string[];
  /** Set when the apply adopted an organization made through a sign-up or the API: who keeps access to it. */
  adopted: AdoptedOrganization | null;
}

export type { AdoptedOrganization } from '../services/organizations/record-adoption.js';

export interface ApplyOptions {
  /**
   * Take over the file's organization though no config file made it (`warden config apply --adopt KEY`): without it
   * such an organization stops the apply with an error naming this way.
   */
  adopt?: boolean;
}

interface PutResult {
  outcome: 'created' | 'updated' | 'unchanged';
  /** The page the object is, or is on. */
  pageId?: string;
  generatedPushToken?: string | null;
}

const PUT: { [K in PlanKind]: (ctx: ServiceContext, entry: PutEntry[K]) => Promise<PutResult> } = {
  relay: putRelay,
  monitor: putMonitor,
  page: async (ctx, entry) => {
    const { page, outcome } = await putPage(ctx, entry);
    return { outcome, pageId: page.id };
  },
  component: async (ctx, entry) => {
    const { component, outcome } = await putComponent(ctx, entry);
    return { outcome, pageId: component.pageId };
  },
  incident: async (ctx, entry) => {
    const { incident, outcome } = await putIncident(ctx, entry);
    return { outcome, pageId: incident.pageId };
  },
  maintenance: async (ctx, entry) => {
    const { window, outcome } = await putMaintenance(ctx, entry);
    return { outcome, pageId: window.pageId };
  },
  board: async (ctx, entry) => {
    const { board, outcome } = await putBoard(ctx, entry);
    return { outcome, pageId: board.pageId };
  },
  notification: async (ctx, entry) => ({ outcome: (await putChannel(ctx, entry)).outcome }),
  escalation: async (ctx, entry) => ({ outcome: (await putPolicy(ctx, entry)).outcome }),
};

const DELETE: Record<PlanKind, (ctx: ServiceContext, step: DeleteStep) => Promise<void>> = {
  relay: (ctx, { id }) => deleteRelay(ctx, { id }),
  monitor: (ctx, { id }) => deleteMonitor(ctx, { id }),
  page: (ctx, { key }) => deletePage(ctx, { slug: key }),
  component: (ctx, { page, id }) => deleteComponent(ctx, { slug: page?.slug ?? '', id }),
  incident: (ctx, { page, id }) => deleteIncident(ctx, { slug: page?.slug ?? '', id }),
  maintenance: (ctx, { page, id }) => deleteMaintenance(ctx, { slug: page?.slug ?? '', id }),
  board: (ctx, { page, id }) => deleteBoard(ctx, { slug: page?.slug ?? '', id }),
  notification: (ctx, { key }) => deleteChannel(ctx, { key }),
  escalation: (ctx, { id }) => deletePolicy(ctx, { id }),
};

/** The kinds of object a page shows, or that is one: changing them re-renders the page. */
const ON_PAGES: ReadonlySet<PlanKind> = new Set(['page', 'component', 'incident', 'maintenance', 'board']);

/**
 * Objects that the file manages and that it no longer lists are deleted (with their history): the file is the truth
 * for what it manages. Objects created through the API or CLI are left alone, unless the file now declares the same
 * key, in which case the file takes them over. An error names where in the file it comes from.
 */
export async function applyConfig(
  ctx: ServiceContext,
  file: ConfigFile,
  options: ApplyOptions = {},
): Promise<SyncReport> {
  // Processes of a cluster starting together apply the same file one after the other, each planning from what the
  // one before wrote (the second finds everything unchanged), instead of racing to create the same keys.
  return withExclusiveTransaction({ ...ctx, writer: 'config' }, 'warden:config-apply', async (tx) => {
    const { key, name, probePrivateTargets } = file.organization;
    const { organization, outcome, adopted } =
      name === undefined
        ? await referencedOrganization(tx, key)
        : await putOrganization(tx, { key, name, probePrivateTargets }, options);
    const org = { ...tx, organizationId: organization.id };
    const report: SyncReport = {
      organization,
      created: [],
      updated: [],
      deleted: [],
      unchanged: 0,
      generatedPushTokens: [],
      touchedPageIds: [],
      adopted: adopted ? await recordAdoption(org) : null,
    };
    if (outcome !== 'unchanged') report[outcome].push(`organization ${organization.key}`);
    const touched = new Set<string>();
    for (const step of planConfig(file, await organizationInventory(org))) {
      try {
        await run(org, step, report, touched);
      } catch (error) {
        throw located(error, step);
      }
    }
    report.touchedPageIds = [...touched];
    // One entry per apply that changed something, with the counts: the file, not the API, made these changes.
    const counts = { created: report.created.length, updated: report.updated.length, deleted: report.deleted.length };
    if (counts.created + counts.updated + counts.deleted > 0)
      await recordAudit(
        { ...org, actor: { kind: 'system', name: 'config' } },
        { action: 'config.apply', id: organization.id, label: organization.key, detail: counts },
      );
    return report;
  });
}

async function run(ctx: ServiceContext, step: PlanStep, report: SyncReport, touched: Set<string>): Promise<void> {
  if (step.action === 'delete') {
    await DELETE[step.kind](ctx, step);
    report.deleted.push(step.label);
    if (ON_PAGES.has(step.kind)) touched.add(step.kind === 'page' ? step.id : (step.page?.id ?? step.id));
    return;
  }
  const put = PUT[step.kind] as (ctx: ServiceContext, entry: PutEntry[PlanKind]) => Promise<PutResult>;
  const result = await put(ctx, step.entry);
  if (result.outcome === 'unchanged') report.unchanged++;
  else {
    report[result.outcome].push(step.label);
    if (result.pageId) touched.add(result.pageId);
  }
  if (result.generatedPushToken)
    report.generatedPushTokens.push({ monitor: step.label.replace(/^monitor /, ''), token: result.generatedPushToken });
}

/** The verb's error, prefixed with the place in the file (or the object) it is about. */
function located(error: unknown, step: PlanStep): unknown {
  if (!(error instanceof WardenError)) return error;
  const where = step.action === 'delete' ? step.label : `${step.path} (${step.label})`;
  error.message = `${where}: ${error.message}`;
  if ('issues' in error && Array.isArray(error.issues))
    for (const issue of error.issues as { path: string }[])
      issue.path = step.action === 'delete' ? issue.path : `${step.path}.${issue.path}`;
  return error;
}
