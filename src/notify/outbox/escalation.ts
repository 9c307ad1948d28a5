// The escalation scan's pass (runner/escalation.ts runs it every 15 s, in every process): each open, unacknowledged
// alert following a policy gets the steps that came due since it opened (step k at openedAt + afterMin), each once.
// The step is recorded on the alert by a conditional update in the transaction that enqueues its deliveries, and the
// deliveries' event ids are stable (`escalate`, alert, step): a concurrent pass, another process, or a pass after a
// kill -9 either finds the step recorded or adds the same deliveries, which the outbox keeps once.
import type { Alert, EscalationPolicy } from '../../domain/alert.js';
import { dueSteps } from '../../domain/alert.js';
import type { Clock } from '../../domain/clock.js';
import { dependencyGraph, downAncestor } from '../../domain/dependencies.js';
import type { Store } from '../../store/index.js';
import { escalationStepItem, openAlertItem } from '../events/escalation.js';
import type { OutboxItem } from '../events/item.js';
import { channelIdsOf, createAckLinks } from './alerts.js';
import type { NotificationPublisher } from './outbox.js';

export function createEscalationPass(deps: {
  store: Store;
  notify?: NotificationPublisher | undefined;
  clock: Clock;
  baseUrl?: () => string;
}): () => Promise<number> {
  const linkFor = createAckLinks(deps.baseUrl ?? (() => ''));

  /** Records the due steps and enqueues their deliveries, in one transaction: how many deliveries were new. */
  async function escalate(
    notify: NotificationPublisher,
    alert: Alert,
    policy: EscalationPolicy,
    due: number[],
    now: number,
  ) {
    const latest = Math.max(...due);
    const channels = due.flatMap((k) => policy.steps[k - 1]?.channels ?? []);
    return deps.store.transaction(async (tx) => {
      if (!(await tx.alerts.recordSteps(alert.id, alert.stepsSent, latest, channels))) return 0;
      const monitor = await tx.monitors.findById(alert.monitorId);
      if (!monitor) return 0;
      const base = openAlertItem(monitor, alert, await linkFor(tx, alert.id, now));
      const items: OutboxItem[] = [];
      for (const k of due) {
        const step = policy.steps[k - 1];
        if (!step) continue;
        const ids = await channelIdsOf(tx, alert.organizationId, step.channels);
        const at = alert.openedAt + step.afterMin * 60_000;
        if (ids.length > 0) items.push(escalationStepItem(base, alert, k, ids, at));
      }
      return notify.publish(tx, items, now);
    });
  }

  return async function pass(): Promise<number> {
    const notify = deps.notify;
    if (!notify) return 0;
    const now = deps.clock.now();
    const policies = new Map<string, EscalationPolicy | undefined>();
    const unreachable = createUnreachableCheck(deps.store);
    let enqueued = 0;
    for (const alert of await deps.store.alerts.listEscalating()) {
      const policyId = alert.policyId as string;
      if (!policies.has(policyId)) policies.set(policyId, await deps.store.escalationPolicies.findById(policyId));
      const policy = policies.get(policyId);
      const due = policy ? dueSteps(alert, policy, now) : [];
      if (!policy || due.length === 0 || (await unreachable(alert))) continue;
      enqueued += await escalate(notify, alert, policy, due, now);
      notify.committed();
    }
    return enqueued;
  };
}

/**
 * Whether an alert's monitor is behind a down parent (docs/monitors.md, "Dependencies"): its steps wait, as its alert
 * does, and come due together once it is released. One read of the graph per organization and pass.
 */
function createUnreachableCheck(store: Store): (alert: Alert) => Promise<boolean> {
  const graphs = new Map<string, ReturnType<typeof dependencyGraph> | null>();
  return async (alert) => {
    if (!graphs.has(alert.organizationId))
      graphs.set(
        alert.organizationId,
        (await store.dependencies.any(alert.organizationId))
          ? dependencyGraph(await store.dependencies.nodes(alert.organizationId))
          : null,
      );
    const graph = graphs.get(alert.organizationId);
    if (!graph) return false;
    const monitor = await store.monitors.findById(alert.monitorId);
    return monitor !== undefined && downAncestor(graph, monitor.key) !== null;
  };
}
