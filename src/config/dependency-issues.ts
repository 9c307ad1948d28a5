// warden.yaml's dependencies (docs/monitors.md, "Dependencies"): a monitor's or a relay's `dependsOn` names a monitor
// of the file, and no monitor ends up depending on itself or below a chain deeper than the limit.
import { dependencyProblem, effectiveParent } from '../domain/dependencies.js';

interface Outline {
  monitors: { key?: string | undefined; dependsOn?: string | undefined; relay?: string | undefined }[];
  relays: { key?: string | undefined; dependsOn?: string | undefined }[];
}

export function dependencyIssues(file: Outline, issue: (path: PropertyKey[], message: string) => void): void {
  const keys = new Set(file.monitors.flatMap((m) => (m.key === undefined ? [] : [m.key])));
  const relayParent = new Map(file.relays.flatMap((r) => (r.key === undefined ? [] : [[r.key, r.dependsOn ?? null]])));
  const parentOf = new Map<string, string | null>();
  for (const m of file.monitors)
    if (m.key !== undefined)
      parentOf.set(m.key, effectiveParent(m.dependsOn ?? null, relayParent.get(m.relay ?? '') ?? null, m.key));
  file.relays.forEach((relay, i) => {
    if (relay.dependsOn !== undefined && !keys.has(relay.dependsOn))
      issue(['relays', i, 'dependsOn'], `no monitor with key "${relay.dependsOn}" in monitors`);
  });
  const onReportedCycle = new Set<string>();
  file.monitors.forEach((monitor, i) => {
    const parent = monitor.key === undefined ? null : (parentOf.get(monitor.key) ?? null);
    if (monitor.key === undefined || parent === null || !keys.has(parent)) {
      if (monitor.dependsOn !== undefined && !keys.has(monitor.dependsOn))
        issue(['monitors', i, 'dependsOn'], `no monitor with key "${monitor.dependsOn}" in monitors`);
      return;
    }
    const field = monitor.dependsOn === undefined ? 'relay' : 'dependsOn';
    if (parent === monitor.key) {
      issue(['monitors', i, field], 'a monitor cannot depend on itself');
      return;
    }
    const problem = dependencyProblem(monitor.key, parent, (key) => parentOf.get(key));
    // A cycle is told once, at its first monitor in the file.
    if (problem === null || onReportedCycle.has(monitor.key)) return;
    issue(['monitors', i, field], problem.message);
    if (problem.path.at(-1) === monitor.key) for (const key of problem.path) onReportedCycle.add(key);
  });
}
