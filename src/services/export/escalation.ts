// An organization's escalation policies as warden.yaml's `escalationPolicies:` (`warden export`). A channel or monitor
// deleted since a policy named it cannot be named by the file: it is left out, with a note, and a step it leaves
// without a channel goes (a policy left with no step is not written at all).
import type { EscalationPolicy } from '../../domain/alert.js';
import { byKey, compact, list, nonEmpty } from './written.js';

export function policyEntries(
  policies: readonly EscalationPolicy[],
  channelKeys: ReadonlySet<string>,
  monitorKeys: ReadonlySet<string>,
  notes: string[],
): Record<string, unknown>[] | undefined {
  return nonEmpty(
    byKey(policies, (p) => p.key).flatMap((policy) => {
      const what = `Escalation policy ${policy.key}`;
      const gone = [...new Set(policy.steps.flatMap((s) => s.channels).filter((key) => !channelKeys.has(key)))];
      if (gone.length > 0)
        notes.push(`${what} names deleted notification channel(s) ${list(gone)}: left out of its steps.`);
      const steps = policy.steps
        .map((step) => ({ afterMin: step.afterMin, channels: step.channels.filter((key) => channelKeys.has(key)) }))
        .filter((step) => step.channels.length > 0);
      if (steps.length === 0) {
        notes.push(`${what} has no step left with a channel: not in this file.`);
        return [];
      }
      const unknown = (policy.monitors ?? []).filter((key) => !monitorKeys.has(key));
      if (unknown.length > 0) notes.push(`${what} names monitor(s) ${list(unknown)} that do not exist: left out.`);
      return [
        compact({
          key: policy.key,
          name: policy.name,
          steps,
          // An empty list covers no monitor, which is not the same as leaving the field out (every monitor).
          monitors: policy.monitors === null ? undefined : policy.monitors.filter((key) => monitorKeys.has(key)),
        }),
      ];
    }),
  );
}
