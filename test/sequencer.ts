// The order files start in. Vitest runs the longest first when its cache (node_modules/.vite) holds the last run's
// durations, so a long file does not start last and finish alone while the other workers idle; on a clean clone (CI,
// a first `npm test`) it has none and starts the largest files first, which are not the longest: in a run of 11 minutes
// a file of a minute (cluster.test.ts: processes started, killed, taken over) could start in the last one. This
// sequencer falls back on the durations below, where the cache knows none: the slowest files of a full run on this
// machine (`WARDEN_TEST_SLOWEST=40 npm test` prints them), in seconds, three files at a time. A file missing from the
// list, or listed and gone, changes nothing but the order.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each took in a full run (2026-12-01), the slowest first. */
const TYPICAL_SECONDS: ReadonlyMap<string, number> = new Map([
  ['test/e2e/cluster.test.ts', 62.6],
  ['test/e2e/dashboard-monitors-edge-types.test.ts', 52.9],
  ['test/e2e/dashboard-pages.test.ts', 35.0],
  ['test/e2e/newcomer.test.ts', 33.0],
  ['test/e2e/cli.test.ts', 32.5],
  ['test/contracts/probes-targets.contract.test.ts', 31.7],
  ['test/e2e/cluster-quorum.test.ts', 30.5],
  ['test/e2e/notifications.test.ts', 30.1],
  ['test/fuzz/fuzz.test.ts', 27.5],
  ['test/e2e/dashboard-relays-notifications.test.ts', 27.4],
  ['test/e2e/escalation-restart.test.ts', 26.1],
  ['test/e2e/cluster-dependencies.test.ts', 25.9],
  ['test/contracts/probes.contract.test.ts', 24.0],
  ['test/e2e/hardening-faults.test.ts', 23.8],
  ['test/e2e/dashboard-settings.test.ts', 23.2],
  ['test/e2e/cluster-partition.test.ts', 22.7],
  ['test/e2e/hardening-channels.test.ts', 22.3],
  ['src/http/routes/push/push.test.ts', 21.6],
  ['test/e2e/cli-users.test.ts', 21.5],
  ['test/e2e/cluster-escalation.test.ts', 21.1],
  ['src/runtime/heap.test.ts', 20.8],
  ['test/contracts/renderers.contract.test.ts', 20.0],
  ['test/e2e/page-render.test.ts', 19.7],
  ['test/e2e/hardening-ssrf.test.ts', 19.6],
  ['src/relay/agent.test.ts', 18.6],
  ['test/e2e/boards.test.ts', 18.4],
  ['test/e2e/hardening-changes.test.ts', 16.7],
  ['test/contracts/store-monitors.contract.test.ts', 15.7],
  ['test/contracts/store-faults.contract.test.ts', 15.1],
  ['test/e2e/relay.test.ts', 14.8],
  ['test/start-failure.test.ts', 14.0],
  ['test/e2e/dashboard-boards.test.ts', 13.6],
  ['src/runner/watchdog.test.ts', 13.4],
  ['test/e2e/monitors-ping-domain.test.ts', 13.1],
  ['test/e2e/hardening-login.test.ts', 12.7],
  ['src/services/pages/page-cache.test.ts', 12.6],
  ['src/cluster/coordinator.test.ts', 12.6],
  ['test/e2e/hardening-relay-secrets.test.ts', 12.0],
  ['src/http/routes/auth/sign-in-limits.test.ts', 11.9],
  ['src/services/import/uptime-kuma-hostile.test.ts', 11.6],
]);

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const seconds = (spec: TestSpecification): number => {
      const path = relative(config.root, spec.moduleId);
      const cached = cache.getFileTestResults(`${spec.project.name}:${path}`);
      return cached ? cached.duration / 1000 : (TYPICAL_SECONDS.get(path) ?? 0);
    };
    const order = new Map((await super.sort(files)).map((spec, i) => [spec, i]));
    // Groups keep their order (sequence.groupOrder: the timed files after the rest); within one, the longest first,
    // then vitest's own order.
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        seconds(b) - seconds(a) ||
        (order.get(a) ?? 0) - (order.get(b) ?? 0),
    );
  }
}
