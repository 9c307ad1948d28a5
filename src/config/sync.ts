// Applies warden.yaml to the store, idempotently: objects are matched by stable keys and only what changed is written.
import { ConflictError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { hashPassword, verifyPassword } from '../domain/passwords.js';
import { displayPrefix, generateSecret, hashSecret } from '../domain/tokens.js';
import * as componentStore from '../store/components.js';
import type { Db } from '../store/connect.js';
import * as incidentStore from '../store/incidents.js';
import * as maintenanceStore from '../store/maintenance.js';
import * as monitorStore from '../store/monitors.js';
import { type Organization, upsertOrganization } from '../store/organizations.js';
import * as pageStore from '../store/pages.js';
import * as relayStore from '../store/relays.js';
import type { ConfigFile, PageConfigEntry } from './file-schema.js';

export interface SyncReport {
  organization: Organization;
  /** "monitor lobby", "page acme", … */
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: number;
  /** Monitors whose push token was generated now; `warden monitors token KEY` issues a known one. */
  generatedPushTokens: string[];
  /** Ids of pages whose content or components changed, so their caches can be dropped. */
  touchedPageIds: string[];
}

/**
 * Objects that the file manages and that it no longer lists are deleted (with their history):
 * the file is the truth for what it manages. Objects created through the API or CLI are left alone,
 * unless the file now declares the same key, in which case the file takes them over.
 */
export async function applyConfig(db: Db, file: ConfigFile, now: number): Promise<SyncReport> {
  return db.transaction().execute(async (trx) => {
    const { organization, changed } = await upsertOrganization(trx, file.organization.key, file.organization.name, now);
    const report: SyncReport = {
      organization,
      created: [],
      updated: [],
      deleted: [],
      unchanged: 0,
      generatedPushTokens: [],
      touchedPageIds: [],
    };
    if (changed) report[organization.createdAt === now ? 'created' : 'updated'].push(`organization ${organization.key}`);
    const relayIds = await syncRelays(trx, organization.id, file, now, report);
    const monitorIds = await syncMonitors(trx, organization.id, file, relayIds, now, report);
    await syncPages(trx, organization.id, file, monitorIds, now, report);
    return report;
  });
}

function note(report: SyncReport, what: 'created' | 'updated' | 'deleted' | 'unchanged', label: string): void {
  if (what === 'unchanged') report.unchanged++;
  else report[what].push(label);
}

async function syncRelays(db: Db, organizationId: string, file: ConfigFile, now: number, report: SyncReport): Promise<Map<string, string>> {
  const existing = new Map((await relayStore.listRelays(db, organizationId)).map((r) => [r.key, r]));
  const ids = new Map<string, string>();
  for (const entry of file.relays) {
    const current = existing.get(entry.key);
    existing.delete(entry.key);
    let id = current?.id;
    if (!current) {
      id = newId('rly');
      await relayStore.insertRelay(db, { id, organizationId, key: entry.key, name: entry.name, managedBy: 'config', now });
      note(report, 'created', `relay ${entry.key}`);
    } else if (current.name !== entry.name || current.managedBy !== 'config') {
      await relayStore.updateRelay(db, current.id, { name: entry.name, managedBy: 'config' }, now);
      note(report, 'updated', `relay ${entry.key}`);
    } else note(report, 'unchanged', `relay ${entry.key}`);
    if (entry.token !== undefined && id !== undefined) {
      const hash = hashSecret(entry.token);
      const holder = await relayStore.findRelayByTokenHash(db, hash);
      if (holder && holder.id !== id) throw new ConflictError(`relays: the token of relay "${entry.key}" is already used by another relay`);
      if (!holder)
        await relayStore.setRelayToken(db, id, { hash, prefix: displayPrefix(entry.token) }, now);
    }
    ids.set(entry.key, id as string);
  }
  for (const stale of existing.values())
    if (stale.managedBy === 'config') {
      await relayStore.deleteRelay(db, stale.id);
      note(report, 'deleted', `relay ${stale.key}`);
    }
  return ids;
}

async function syncMonitors(
  db: Db,
  organizationId: string,
  file: ConfigFile,
  relayIds: Map<string, string>,
  now: number,
  report: SyncReport,
): Promise<Map<string, string>> {
  const existing = new Map((await monitorStore.listMonitors(db, organizationId)).map((m) => [m.key, m]));
  const ids = new Map<string, string>();
  for (const entry of file.monitors) {
    const spec: monitorStore.MonitorSpec = {
      key: entry.key,
      name: entry.name,
      type: entry.type,
      config: entry.config as Record<string, unknown>,
      intervalSec: entry.intervalSec,
      timeoutMs: entry.timeoutMs,
      runOn: entry.runOn,
      relayId: entry.relay === undefined ? null : (relayIds.get(entry.relay) ?? null),
      enabled: entry.enabled,
      retries: entry.retries,
      degradedLatencyMs: entry.degradedLatencyMs ?? null,
    };
    const current = existing.get(entry.key);
    existing.delete(entry.key);
    const wantsToken = entry.runOn === 'push';
    if (entry.pushToken !== undefined) {
      const holder = await monitorStore.findMonitorByPushTokenHash(db, hashSecret(entry.pushToken));
      if (holder && holder.id !== current?.id)
        throw new ConflictError(`monitors: the push token of monitor "${entry.key}" is already used by another monitor`);
    }
    if (!current) {
      const id = newId('mon');
      let pushToken: { hash: string; prefix: string } | null = null;
      if (wantsToken) {
        const token = entry.pushToken ?? generateSecret('pushToken');
        if (entry.pushToken === undefined) report.generatedPushTokens.push(entry.key);
        pushToken = { hash: hashSecret(token), prefix: displayPrefix(token) };
      }
      await monitorStore.insertMonitor(db, { ...spec, id, organizationId, managedBy: 'config', pushToken }, now);
      note(report, 'created', `monitor ${entry.key}`);
      ids.set(entry.key, id);
      continue;
    }
    ids.set(entry.key, current.id);
    let changed = false;
    if (monitorStore.monitorSpecChanged(current, spec) || current.managedBy !== 'config') {
      await monitorStore.updateMonitorSpec(db, current.id, spec, 'config', now);
      changed = true;
    }
    const storedHash = await monitorStore.monitorPushTokenHash(db, current.id);
    if (wantsToken && entry.pushToken !== undefined && storedHash !== hashSecret(entry.pushToken)) {
      await monitorStore.setMonitorPushToken(db, current.id, { hash: hashSecret(entry.pushToken), prefix: displayPrefix(entry.pushToken) }, now);
      changed = true;
    } else if (wantsToken && storedHash === null) {
      const token = generateSecret('pushToken');
      await monitorStore.setMonitorPushToken(db, current.id, { hash: hashSecret(token), prefix: displayPrefix(token) }, now);
      report.generatedPushTokens.push(entry.key);
      changed = true;
    } else if (!wantsToken && storedHash !== null) {
      await monitorStore.setMonitorPushToken(db, current.id, null, now);
      changed = true;
    }
    note(report, changed ? 'updated' : 'unchanged', `monitor ${entry.key}`);
  }
  for (const stale of existing.values())
    if (stale.managedBy === 'config') {
      await monitorStore.deleteMonitor(db, stale.id);
      note(report, 'deleted', `monitor ${stale.key}`);
    }
  return ids;
}

async function syncPages(
  db: Db,
  organizationId: string,
  file: ConfigFile,
  monitorIds: Map<string, string>,
  now: number,
  report: SyncReport,
): Promise<void> {
  const existing = new Map((await pageStore.listPages(db, organizationId)).map((p) => [p.slug, p]));
  for (const entry of file.pages) {
    let page = existing.get(entry.slug);
    existing.delete(entry.slug);
    const owner = page ?? (await pageStore.findPageBySlug(db, entry.slug));
    if (owner && owner.organizationId !== organizationId)
      throw new ConflictError(`page slug "${entry.slug}" belongs to another organization`);
    if (entry.customDomain !== undefined) {
      const holder = await pageStore.findPageByDomain(db, entry.customDomain);
      if (holder && holder.slug !== entry.slug) throw new ConflictError(`custom domain ${entry.customDomain} is used by page "${holder.slug}"`);
    }
    const spec: pageStore.PageSpec = {
      slug: entry.slug,
      title: entry.title,
      description: entry.description ?? null,
      customDomain: entry.customDomain ?? null,
      aiPolicy: entry.aiPolicy,
    };
    let touched = false;
    if (!page) {
      const id = newId('pg');
      await pageStore.insertPage(
        db,
        { ...spec, id, organizationId, passwordHash: entry.password ? hashPassword(entry.password) : null, managedBy: 'config' },
        now,
      );
      page = (await pageStore.findPageBySlug(db, entry.slug)) as pageStore.Page;
      note(report, 'created', `page ${entry.slug}`);
      touched = true;
    } else {
      const passwordSame =
        entry.password === undefined ? page.passwordHash === null : page.passwordHash !== null && verifyPassword(entry.password, page.passwordHash);
      const fieldsSame =
        page.title === spec.title &&
        page.description === spec.description &&
        page.customDomain === spec.customDomain &&
        page.aiPolicy === spec.aiPolicy &&
        page.managedBy === 'config';
      if (!passwordSame || !fieldsSame) {
        await pageStore.updatePage(
          db,
          page.id,
          {
            ...spec,
            managedBy: 'config',
            ...(passwordSame ? {} : { passwordHash: entry.password ? hashPassword(entry.password) : null }),
          },
          now,
        );
        note(report, 'updated', `page ${entry.slug}`);
        touched = true;
      } else note(report, 'unchanged', `page ${entry.slug}`);
    }
    const childrenTouched = await syncPageContents(db, page, entry, monitorIds, now, report);
    if (touched || childrenTouched) report.touchedPageIds.push(page.id);
  }
  for (const stale of existing.values())
    if (stale.managedBy === 'config') {
      await pageStore.deletePage(db, stale.id);
      note(report, 'deleted', `page ${stale.slug}`);
      report.touchedPageIds.push(stale.id);
    }
}

/** Components, incidents and maintenance of one page; returns whether anything changed. */
async function syncPageContents(
  db: Db,
  page: pageStore.Page,
  entry: PageConfigEntry,
  monitorIds: Map<string, string>,
  now: number,
  report: SyncReport,
): Promise<boolean> {
  const before = report.created.length + report.updated.length + report.deleted.length;
  const existing = new Map((await componentStore.listComponents(db, page.id)).map((c) => [c.key, c]));
  const componentIds = new Map<string, string>();
  for (const [order, component] of entry.components.entries()) {
    const key = component.key ?? component.name;
    const spec: componentStore.ComponentSpec = {
      key,
      name: component.name,
      description: component.description ?? null,
      group: component.group ?? null,
      order,
      monitorId: component.monitor === undefined ? null : (monitorIds.get(component.monitor) ?? null),
    };
    const current = existing.get(key);
    existing.delete(key);
    const label = `component ${page.slug}/${key}`;
    if (!current) {
      const id = newId('cmp');
      await componentStore.insertComponent(db, { ...spec, id, pageId: page.id, managedBy: 'config' }, now);
      componentIds.set(key, id).set(component.name, id);
      note(report, 'created', label);
      continue;
    }
    componentIds.set(key, current.id).set(component.name, current.id);
    if (componentStore.componentSpecChanged(current, spec) || current.managedBy !== 'config') {
      await componentStore.updateComponent(db, current.id, spec, 'config', now);
      note(report, 'updated', label);
    } else note(report, 'unchanged', label);
  }
  for (const stale of existing.values())
    if (stale.managedBy === 'config') {
      await componentStore.deleteComponent(db, stale.id);
      note(report, 'deleted', `component ${page.slug}/${stale.key}`);
    } else componentIds.set(stale.key, stale.id);

  const resolve = (refs: string[]) => [...new Set(refs.map((r) => componentIds.get(r)).filter((id): id is string => id !== undefined))];

  const incidents = new Map((await incidentStore.listIncidents(db, page.id)).filter((i) => i.key !== null).map((i) => [i.key as string, i]));
  for (const item of entry.incidents) {
    const spec: incidentStore.IncidentSpec = {
      key: item.key,
      title: item.title,
      status: item.status,
      impact: item.impact,
      startedAt: item.startedAt,
      resolvedAt: item.resolvedAt ?? (item.status === 'resolved' ? (item.updates.at(-1)?.at ?? item.startedAt) : null),
      componentIds: resolve(item.components),
      updates: item.updates,
    };
    const current = incidents.get(item.key);
    incidents.delete(item.key);
    const label = `incident ${page.slug}/${item.key}`;
    if (!current) {
      await incidentStore.insertIncident(db, { ...spec, id: newId('inc'), pageId: page.id, managedBy: 'config' }, () => newId('upd'), now);
      note(report, 'created', label);
    } else if (incidentStore.incidentSpecChanged(current, spec) || current.managedBy !== 'config') {
      await incidentStore.updateIncident(db, current.id, spec, 'config', () => newId('upd'), now);
      note(report, 'updated', label);
    } else note(report, 'unchanged', label);
  }
  for (const stale of incidents.values())
    if (stale.managedBy === 'config') {
      await incidentStore.deleteIncident(db, stale.id);
      note(report, 'deleted', `incident ${page.slug}/${stale.key}`);
    }

  const windows = new Map((await maintenanceStore.listMaintenance(db, page.id)).filter((m) => m.key !== null).map((m) => [m.key as string, m]));
  for (const item of entry.maintenance) {
    const spec: maintenanceStore.MaintenanceSpec = {
      key: item.key,
      title: item.title,
      description: item.description ?? null,
      startsAt: item.startsAt,
      endsAt: item.endsAt,
      componentIds: resolve(item.components),
    };
    const current = windows.get(item.key);
    windows.delete(item.key);
    const label = `maintenance ${page.slug}/${item.key}`;
    if (!current) {
      await maintenanceStore.insertMaintenance(db, { ...spec, id: newId('mnt'), pageId: page.id, managedBy: 'config' }, now);
      note(report, 'created', label);
    } else if (maintenanceStore.maintenanceSpecChanged(current, spec) || current.managedBy !== 'config') {
      await maintenanceStore.updateMaintenance(db, current.id, spec, 'config', now);
      note(report, 'updated', label);
    } else note(report, 'unchanged', label);
  }
  for (const stale of windows.values())
    if (stale.managedBy === 'config') {
      await maintenanceStore.deleteMaintenance(db, stale.id);
      note(report, 'deleted', `maintenance ${page.slug}/${stale.key}`);
    }
  return report.created.length + report.updated.length + report.deleted.length > before;
}
