// `warden import gatus`: a Gatus configuration as a warden.yaml: endpoints as monitors with their conditions as
// expectations, external endpoints as heartbeat monitors, groups as components of one status page, alerting as
// notification channels; what does not carry over is reported (docs/import.md, "Gatus").
import { isIP } from 'node:net';
import { ValidationError } from '../../domain/errors.js';
import { MONITOR_LIMITS } from '../../domain/limits.js';
import { nonPublicKind } from '../../net/address-ranges.js';
import { fileText } from './file-text.js';
import {
  type AlertingImport,
  importAlerting,
  isObject,
  providerNameIssues,
  type ResolvedAlert,
  resolveAlerts,
  retriesOf,
} from './gatus-alerting.js';
import { type GatusProbe, gatusProbe } from './gatus-endpoints.js';
import { type GatusMaintenance, maintenanceWindows } from './gatus-maintenance.js';
import { statusPage } from './gatus-page.js';
import { clip, goDurationMs, keyAllocator, keyFromName, textOf, withWardenEnv } from './gatus-values.js';
import type { ImportNote, ImportReport } from './report.js';

export { parseGatusConfig } from './gatus-parse.js';

export interface GatusImportOptions {
  /** The status page's slug; `status` when absent. */
  page?: string | undefined;
}

/** Gatus's defaults: an endpoint is checked every minute; a heartbeat grace period is at most Warden's longest. */
const GATUS_INTERVAL_MS = 60_000;
const HEARTBEAT_GRACE_SEC = { min: 10, max: 7 * 24 * 3600 } as const;

/** Throws ValidationError when the configuration names an alerting provider Gatus cannot have (providerNameIssues). */
export function importGatus(config: Record<string, unknown>, options: GatusImportOptions = {}): ImportReport {
  const gatus = withWardenEnv(config) as Record<string, unknown>;
  const names = providerNameIssues(gatus);
  if (names.length > 0)
    throw new ValidationError(names, 'The Gatus configuration names alerting providers Gatus does not have.');
  const skipped: ImportNote[] = [];
  const approximated: ImportNote[] = [];
  const alerting = isObject(gatus.alerting) ? gatus.alerting : {};
  const allocate = keyAllocator();
  const imported: { monitor: Record<string, unknown>; group?: string; alerts: ResolvedAlert[]; item: string }[] = [];
  const privateTargets: string[] = [];
  const maintenance: GatusMaintenance[] = [];
  if (gatus.maintenance !== undefined && gatus.maintenance !== null)
    maintenance.push({ value: gatus.maintenance, item: 'maintenance' });

  for (const [i, endpoint] of entries(gatus.endpoints)) {
    const item = `endpoints[${i}] "${fileText(endpoint.name)}"`;
    const name = nameOf(endpoint.name);
    const probe = name === undefined ? { skip: 'it has no name' } : gatusProbe(endpoint);
    if (name === undefined || 'skip' in probe) {
      skipped.push({ item, reason: 'skip' in probe ? probe.skip : 'it has no name' });
      continue;
    }
    for (const reason of probe.notes) approximated.push({ item, reason });
    if (probe.host !== undefined && isPrivateHost(probe.host)) privateTargets.push(name);
    const monitor = withSchedule(baseMonitor(allocate, endpoint, name, probe), endpoint, item, approximated);
    imported.push({ monitor, ...groupOf(endpoint), alerts: resolveAlerts(endpoint.alerts, alerting), item });
    const windows = Array.isArray(endpoint['maintenance-windows']) ? endpoint['maintenance-windows'] : [];
    windows.forEach((w, j) => {
      maintenance.push({ value: w, item: `${item} maintenance-windows[${j}]`, monitor: monitor.key as string });
    });
  }
  for (const [i, endpoint] of entries(gatus['external-endpoints'])) {
    const item = `external-endpoints[${i}] "${fileText(endpoint.name)}"`;
    const name = nameOf(endpoint.name);
    if (name === undefined) skipped.push({ item, reason: 'it has no name' });
    else
      imported.push({
        monitor: heartbeatMonitor(allocate, endpoint, name, item, approximated),
        ...groupOf(endpoint),
        alerts: resolveAlerts(endpoint.alerts, alerting),
        item,
      });
  }

  const used = new Map<string, ResolvedAlert[]>();
  for (const { alerts } of imported)
    for (const alert of alerts) if (alert.enabled) used.set(alert.type, [...(used.get(alert.type) ?? []), alert]);
  const channels = importAlerting(alerting, used, { skipped, approximated });
  for (const entry of imported) attachAlerts(entry, channels, alerting, { skipped, approximated });

  for (const section of ['suites', 'announcements'] as const) {
    const value = gatus[section];
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    skipped.push({ item: section, reason: SECTION_REASONS[section] });
  }
  const ui = isObject(gatus.ui) ? gatus.ui : {};
  if (typeof ui['custom-css'] === 'string' && ui['custom-css'] !== '')
    skipped.push({
      item: 'ui.custom-css',
      reason: "it styles Gatus's markup; a Warden page takes its own (customCss)",
    });

  const organization: Record<string, unknown> = { name: clip(textOf(ui.header) ?? 'Status') };
  if (privateTargets.length > 0) {
    organization.probePrivateTargets = 'allow';
    approximated.push({
      item: 'organization',
      reason: `probePrivateTargets: allow, as ${privateTargets.join(', ')} reach${privateTargets.length === 1 ? 'es' : ''} local or private addresses`,
    });
  }
  const page = statusPage(options.page ?? 'status', ui, imported, approximated);
  const windows = maintenanceWindows(maintenance, page, skipped);
  if (windows.length > 0) page.maintenance = windows;
  const file: Record<string, unknown> = {
    organization,
    monitors: imported.map((entry) => entry.monitor),
    pages: [page],
  };
  if (channels.channels.length > 0) file.notifications = channels.channels;
  return { file, skipped, approximated };
}

const SECTION_REASONS = {
  suites: 'Warden has no multi-step suites; monitor each endpoint on its own',
  announcements: 'post them as incidents on the page',
} as const;

/** An external endpoint: a heartbeat monitor whose grace period is Gatus's heartbeat.interval. */
function heartbeatMonitor(
  allocate: (keys: readonly string[]) => string,
  endpoint: Record<string, unknown>,
  name: string,
  item: string,
  approximated: ImportNote[],
): Record<string, unknown> {
  const heartbeat = isObject(endpoint.heartbeat) ? endpoint.heartbeat : {};
  const intervalMs = goDurationMs(heartbeat.interval) ?? 0;
  const wanted = intervalMs === 0 ? HEARTBEAT_GRACE_SEC.max : Math.round(intervalMs / 1000);
  const graceSec = Math.min(HEARTBEAT_GRACE_SEC.max, Math.max(HEARTBEAT_GRACE_SEC.min, wanted));
  if (intervalMs === 0)
    approximated.push({
      item,
      reason: `Gatus never failed it for silence (no heartbeat.interval); Warden does after graceSec, set to its longest (${graceSec} s)`,
    });
  else if (graceSec !== wanted)
    approximated.push({
      item,
      reason: `heartbeat.interval ${fileText(heartbeat.interval)} is out of Warden's range: graceSec ${graceSec}`,
    });
  approximated.push({
    item,
    reason:
      "push to Warden's push URL with the monitor's own token (warden config apply prints it); success=false becomes status=down",
  });
  return {
    key: allocate(keyCandidates(name, endpoint.group)),
    name,
    type: 'heartbeat',
    ...(endpoint.enabled === false ? { enabled: false } : {}),
    config: { graceSec },
  };
}

function baseMonitor(
  allocate: (keys: readonly string[]) => string,
  endpoint: Record<string, unknown>,
  name: string,
  probe: GatusProbe,
): Record<string, unknown> {
  return {
    key: allocate(keyCandidates(name, endpoint.group)),
    name,
    type: probe.type,
    ...(endpoint.enabled === false ? { enabled: false } : {}),
    ...(probe.degradedLatencyMs === undefined ? {} : { degradedLatencyMs: probe.degradedLatencyMs }),
    config: probe.config,
  };
}

/** The interval and the client timeout, within Warden's bounds (a note when one had to move). */
function withSchedule(
  monitor: Record<string, unknown>,
  endpoint: Record<string, unknown>,
  item: string,
  approximated: ImportNote[],
): Record<string, unknown> {
  const { intervalSec: intervalBounds, timeoutMs: timeoutBounds } = MONITOR_LIMITS;
  const intervalMs = endpoint.interval === undefined ? GATUS_INTERVAL_MS : goDurationMs(endpoint.interval);
  if (intervalMs === undefined)
    approximated.push({
      item,
      reason: `interval "${fileText(endpoint.interval)}" is not a duration Warden can read; every 60 s`,
    });
  const wanted = Math.round((intervalMs ?? GATUS_INTERVAL_MS) / 1000);
  const intervalSec = Math.min(intervalBounds.max, Math.max(intervalBounds.min, wanted));
  if (intervalMs !== undefined && intervalSec !== wanted)
    approximated.push({
      item,
      reason: `interval ${fileText(endpoint.interval)} is out of Warden's range: every ${intervalSec} s`,
    });
  const { config, ...rest } = monitor;
  const client = isObject(endpoint.client) ? endpoint.client : {};
  const timeout = client.timeout === undefined ? undefined : goDurationMs(client.timeout);
  const timeoutMs =
    timeout === undefined ? undefined : Math.min(timeoutBounds.max, Math.max(timeoutBounds.min, Math.round(timeout)));
  if (timeout !== undefined && timeoutMs !== Math.round(timeout))
    approximated.push({
      item,
      reason: `client.timeout ${fileText(client.timeout)} is out of Warden's range: ${timeoutMs} ms`,
    });
  return { ...rest, intervalSec, ...(timeoutMs === undefined ? {} : { timeoutMs }), config };
}

/** The channels an entry's alerts name, and the retries their failure-threshold implies. */
function attachAlerts(
  entry: { monitor: Record<string, unknown>; alerts: ResolvedAlert[]; item: string },
  channels: AlertingImport,
  alerting: Record<string, unknown>,
  { skipped, approximated }: { skipped: ImportNote[]; approximated: ImportNote[] },
): void {
  const notify = new Set<string>();
  for (const alert of entry.alerts) {
    if (!alert.enabled) continue;
    const key = channels.keyOf.get(alert.type);
    if (key !== undefined) notify.add(key);
    else if (!Object.hasOwn(alerting, alert.type))
      skipped.push({
        item: `${entry.item} alert ${alert.type}`,
        reason: `no alerting.${alert.type} provider is configured`,
      });
  }
  if (notify.size === 0) return;
  const sent = entry.alerts.filter((alert) => alert.enabled && notify.has(channels.keyOf.get(alert.type) ?? ''));
  const retries = retriesOf(sent);
  if (new Set(sent.map((alert) => alert.failureThreshold)).size > 1)
    approximated.push({
      item: entry.item,
      reason: `its alerts wait for different failure-thresholds: every channel is told after ${(retries ?? 0) + 1} failures in a row (retries: ${retries})`,
    });
  const { config, ...rest } = entry.monitor;
  entry.monitor = { ...rest, ...(retries === undefined ? {} : { retries }), notify: [...notify], config };
}

function keyCandidates(name: string, group: unknown): string[] {
  const key = keyFromName(name, 'monitor');
  const grouped = typeof group === 'string' && group.trim() !== '' ? keyFromName(`${group}-${name}`, key) : undefined;
  return grouped === undefined || grouped === key ? [key] : [key, grouped];
}

function groupOf(endpoint: Record<string, unknown>): { group?: string } {
  const group = textOf(endpoint.group);
  return group === undefined ? {} : { group: clip(group) };
}

/** Local and private addresses, and single-label names (a container's or a LAN's), which Warden refuses by default. */
function isPrivateHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare.includes('${')) return false;
  if (isIP(bare) !== 0) return nonPublicKind(bare) !== undefined;
  return bare === 'localhost' || bare.endsWith('.localhost') || bare.endsWith('.local') || !bare.includes('.');
}

function nameOf(value: unknown): string | undefined {
  const name = textOf(typeof value === 'number' ? String(value) : value);
  return name === undefined ? undefined : clip(name);
}

/** The mappings of a YAML list with their positions in it (what the notes name). */
function entries(value: unknown): [number, Record<string, unknown>][] {
  return Array.isArray(value)
    ? [...value.entries()].filter((entry): entry is [number, Record<string, unknown>] => isObject(entry[1]))
    : [];
}
