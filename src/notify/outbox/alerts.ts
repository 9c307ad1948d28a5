// The alerts a commit's state changes open and close (docs/notifications.md, "Escalation and acknowledgement"), in
// the commit's transaction: a monitor going down or degraded opens its alert (once: one open alert per monitor), its
// events carry the alert's signed ack link, and a policy covering the monitor sends step 1 to its channels at once;
// back up closes it, and the resolve goes to every channel a step reached, so PagerDuty and Opsgenie close too.
import { randomBytes } from 'node:crypto';
import {
  ACK_LINK_SECRET,
  type Alert,
  ackLinkUrl,
  alertIdOf,
  ESCALATION_LIMITS,
  type EscalationPolicy,
  policyFor,
} from '../../domain/alert.js';
import type { Monitor } from '../../domain/monitor.js';
import type { Store } from '../../store/index.js';
import { escalationResolveItem, escalationStepItem } from '../events/escalation.js';
import type { OutboxItem } from '../events/item.js';
import { type StateChange, stateChangeItem } from '../events/monitors.js';

/** What a commit did to alerts, by monitor id. */
export interface AlertMoves {
  opened: Map<string, Alert>;
  /** Open before and after this commit (down then degraded): its events still carry it. */
  open: Map<string, Alert>;
  closed: Map<string, { alert: Alert; change: StateChange }>;
}

export interface AlertTracker {
  track(tx: Store, changes: readonly StateChange[], now: number): Promise<AlertMoves>;
  /** The items with their alert, and the escalation items the moves call for (step 1, resolves). */
  escalate(tx: Store, items: readonly OutboxItem[], moves: AlertMoves, now: number): Promise<OutboxItem[]>;
  /** The signed link acknowledging an alert (null without a public address). */
  linkFor(tx: Store, alertId: string, now: number): Promise<string | null>;
}

/** The signed links acknowledging alerts, valid for a week from `now` (null without a public address). */
export function createAckLinks(baseUrl: () => string): AlertTracker['linkFor'] {
  let key: string | undefined;
  return async (tx, alertId, now) => {
    const base = baseUrl();
    if (!base) return null;
    key ??= await tx.serverSecrets.getOrCreate(ACK_LINK_SECRET, () => randomBytes(32).toString('base64url'), now);
    return ackLinkUrl(base, key, alertId, now + ESCALATION_LIMITS.linkLifetimeMs);
  };
}

export function createAlertTracker(baseUrl: () => string): AlertTracker {
  const linkFor = createAckLinks(baseUrl);

  async function track(tx: Store, changes: readonly StateChange[], _now: number): Promise<AlertMoves> {
    const moves: AlertMoves = { opened: new Map(), open: new Map(), closed: new Map() };
    // One read for the commit, not one per monitor back up: which of them have an alert to close (most have none).
    const recovering = [...new Set(changes.filter((c) => c.state === 'up').map((c) => c.monitorId))];
    const openBefore = new Set((await tx.alerts.openOf(recovering)).map((a) => a.monitorId));
    const policies = new Map<string, Promise<EscalationPolicy[]>>();
    const policiesOf = (organizationId: string) => {
      const listed = policies.get(organizationId) ?? tx.escalationPolicies.list(organizationId);
      policies.set(organizationId, listed);
      return listed;
    };
    for (const change of changes) {
      if (change.state === 'down' || change.state === 'degraded') {
        const id = alertIdOf(change.monitorId, change.at);
        const policyId = await policyOf(tx, change, await policiesOf(change.organizationId));
        const alert = await tx.alerts.open({
          id,
          organizationId: change.organizationId,
          monitorId: change.monitorId,
          openedAt: change.at,
          openedState: change.state,
          policyId,
        });
        (alert.id === id ? moves.opened : moves.open).set(change.monitorId, alert);
      } else if (change.state === 'up') {
        // Open before this commit, or opened by one of its earlier changes (down, then up again).
        const mayBeOpen =
          openBefore.has(change.monitorId) || moves.opened.has(change.monitorId) || moves.open.has(change.monitorId);
        if (!mayBeOpen) continue;
        const alert = await tx.alerts.close(change.monitorId, change.at);
        if (alert) moves.closed.set(change.monitorId, { alert, change });
      }
    }
    return moves;
  }

  async function escalate(
    tx: Store,
    items: readonly OutboxItem[],
    moves: AlertMoves,
    now: number,
  ): Promise<OutboxItem[]> {
    const out: OutboxItem[] = [];
    for (const item of items) {
      const monitorId = item.subject.monitorId;
      const alert = monitorId ? (moves.opened.get(monitorId) ?? moves.open.get(monitorId)) : undefined;
      const opens = item.event.kind === 'monitor.down' || item.event.kind === 'monitor.degraded';
      // Held back behind a down parent: no link, no step; the scan escalates it once it is released.
      if (!alert || !opens || item.heldBack !== undefined) {
        out.push(item);
        continue;
      }
      const acknowledgeUrl = await linkFor(tx, alert.id, now);
      const carried = { ...item, event: { ...item.event, alert: { id: alert.id, acknowledgeUrl } } };
      out.push(carried);
      if (moves.opened.get(alert.monitorId) === alert) out.push(...(await firstStep(tx, carried, alert)));
    }
    for (const { alert, change } of moves.closed.values()) {
      if (alert.stepChannels.length === 0) continue;
      const channelIds = await channelIdsOf(tx, alert.organizationId, alert.stepChannels);
      const recovered =
        out.find((i) => i.subject.monitorId === alert.monitorId && i.event.kind === 'monitor.recovered') ??
        (await recoveredItem(tx, change));
      if (recovered && channelIds.length > 0) out.push(escalationResolveItem(recovered, alert, channelIds));
    }
    return out;
  }

  return { track, escalate, linkFor };
}

/** The policy covering the changed monitor, among its organization's `policies` (read once per commit). */
async function policyOf(tx: Store, change: StateChange, policies: EscalationPolicy[]): Promise<string | null> {
  if (policies.length === 0) return null;
  const monitor = await tx.monitors.findById(change.monitorId);
  return monitor ? (policyFor(policies, monitor.key)?.id ?? null) : null;
}

/** Step 1 of the alert's policy, if its afterMin is 0 (at once), recorded on the alert in the same transaction. */
async function firstStep(tx: Store, item: OutboxItem, alert: Alert): Promise<OutboxItem[]> {
  if (alert.policyId === null) return [];
  const policy = await tx.escalationPolicies.findById(alert.policyId);
  const step = policy?.steps[0];
  if (!step || step.afterMin > 0) return [];
  if (!(await tx.alerts.recordSteps(alert.id, 0, 1, step.channels))) return [];
  const channelIds = await channelIdsOf(tx, alert.organizationId, step.channels);
  return channelIds.length > 0 ? [escalationStepItem(item, alert, 1, channelIds, item.event.at)] : [];
}

/** The ids of the organization's enabled channels with these keys (a deleted or disabled one is left out). */
export async function channelIdsOf(tx: Store, organizationId: string, keys: readonly string[]): Promise<string[]> {
  const wanted = new Set(keys);
  return (await tx.channels.listEnabled(organizationId)).filter((c) => wanted.has(c.key)).map((c) => c.id);
}

/** A recovery for a change that is not one of the notified kinds (degraded, then up): built for the resolve. */
async function recoveredItem(tx: Store, change: StateChange): Promise<OutboxItem | undefined> {
  const monitor: Monitor | undefined = await tx.monitors.findById(change.monitorId);
  return monitor ? stateChangeItem(change, monitor, 'monitor.recovered') : undefined;
}
