// The edge runner (scheduler) in cluster mode, in fake time: it runs only the monitors it owns, resumes or spreads the
// ones it takes over, and drops those it no longer owns.
import { describe, expect, it } from 'vitest';
import { edgeRunnerHarness, fakeProbe, monitorsYaml } from '../../test/edge-runner.js';
import { seed } from '../../test/seed.js';
import { dialects } from '../../test/store-dialects.js';
import { spread } from './probe-schedule.js';
import { firstSlot, overdueSpread } from './scheduler.js';

describe('an overdue monitor handed over', () => {
  it('runs within as long as it is overdue: 2 s at least, 10 s or a sixth of its interval at most', () => {
    // Fell due while its shard moved between two live processes: soon.
    expect(overdueSpread(300, 60_000)).toBe(2_000);
    expect(overdueSpread(5_000, 60_000)).toBe(5_000);
    // A dead process's, overdue by its lease's lapse: over 10 s, not packed into 2 s.
    expect(overdueSpread(15_000, 60_000)).toBe(10_000);
    expect(overdueSpread(15_000, 12_000)).toBe(2_000);
  });

  it('has a slot of its own when never checked: the same moment of each interval whenever it is asked', () => {
    const at = firstSlot('mon_abc', 60_000, 1_000_000);
    expect(at).toBeGreaterThanOrEqual(1_000_000);
    expect(at).toBeLessThan(1_060_000);
    expect(firstSlot('mon_abc', 60_000, at - 30_000)).toBe(at);
    expect(firstSlot('mon_abc', 60_000, at)).toBe(at);
    expect(firstSlot('mon_abc', 60_000, at + 1)).toBe(at + 60_000);
  });
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the edge runner on ${dialect.name}`, () => {
    const e = edgeRunnerHarness(dialect);

    /**
     * A runner owning nothing yet; then another instance's last checks of some monitors (seconds ago, by key) are
     * stored and every monitor is handed to it. Resolves with the fake probe, the monitors and when they were handed.
     */
    async function takeOver(count: number, intervalSec: number, lastChecks: Record<string, number>) {
      const { monitors } = await seed(e.opened.store, monitorsYaml(count, intervalSec), Date.now());
      const fake = fakeProbe(0);
      const owned = new Set<string>();
      e.scheduler = e.runner({ probeFor: fake.probeFor, owns: (id) => owned.has(id) });
      await e.scheduler.start();
      const now = Date.now();
      const recorded = e.ingest.recordMany(
        Object.entries(lastChecks).map(([key, agoMs]) => ({
          monitorId: monitors[key]!.id,
          ok: true,
          checkedAt: now - agoMs,
          source: 'edge' as const,
        })),
      );
      await e.ingest.flush();
      await recorded;
      for (const m of Object.values(monitors)) owned.add(m.id);
      await e.scheduler.reload();
      return { fake, monitors, now };
    }

    it('runs only the monitors it owns (cluster mode)', async () => {
      await seed(e.opened.store, monitorsYaml(6, 10), Date.now());
      const fake = fakeProbe(0);
      const owned = new Set(['m0', 'm1']);
      const ids = new Map(
        (await e.opened.store.monitors.list((await e.opened.store.organizations.list())[0]!.id)).map((m) => [
          m.id,
          m.key,
        ]),
      );
      e.scheduler = e.runner({ probeFor: fake.probeFor, owns: (id) => owned.has(ids.get(id) ?? '') });
      await e.scheduler.start();
      await e.advance(25_000);
      expect(new Set(fake.runs.map((r) => r.key))).toEqual(new Set(['m0', 'm1']));
      expect(e.scheduler.stats().monitors).toBe(2);
    });

    it('resumes a monitor newly owned one interval after its stored last check, or soon when that passed', async () => {
      // Another instance checked m0 4 s ago and m1 35 s ago (then died); m2 was never checked.
      const { fake, now } = await takeOver(3, 10, { m0: 4_000, m1: 35_000 });
      await e.advance(20_000, 100);
      const first = (key: string) => fake.runs.find((r) => r.key === key)?.at ?? Number.NaN;
      expect(first('m0') - now).toBeGreaterThanOrEqual(6_000);
      expect(first('m0') - now).toBeLessThanOrEqual(6_100);
      expect(first('m1') - now).toBeLessThanOrEqual(2_100);
      expect(first('m2') - now).toBeLessThanOrEqual(10_000);
      // Then at its own cadence: once per interval, no second run right after the handover.
      const m0Runs = fake.runs.filter((r) => r.key === 'm0').map((r) => r.at);
      expect(m0Runs).toHaveLength(2);
      expect((m0Runs[1] ?? 0) - (m0Runs[0] ?? 0)).toBe(10_000);
      // m1, caught up at once, then goes back to the cadence of its last check (35 s ago: now + 15 s), not one interval
      // after the catch-up: a dead process's overdue monitors must not stay packed into those few seconds.
      const m1Runs = fake.runs.filter((r) => r.key === 'm1').map((r) => r.at);
      expect(m1Runs).toHaveLength(2);
      expect((m1Runs[1] ?? 0) - now).toBeGreaterThanOrEqual(14_900);
      expect((m1Runs[1] ?? 0) - now).toBeLessThanOrEqual(15_100);
    });

    it('spreads the never-checked monitors of shards it takes over, rather than checking them all at once', async () => {
      await seed(e.opened.store, monitorsYaml(60, 60), Date.now());
      const fake = fakeProbe(0);
      const owned = new Set<string>();
      e.scheduler = e.runner({ probeFor: fake.probeFor, owns: (id) => owned.has(id) });
      await e.scheduler.start();
      await e.advance(10_000);
      // The shards arrive: their monitors are new to this process, but none of them changed.
      for (const m of await e.opened.store.monitors.list((await e.opened.store.organizations.list())[0]!.id))
        owned.add(m.id);
      await e.scheduler.reload();
      await e.advance(2_000);
      expect(fake.runs.length).toBeLessThan(15);
      await e.advance(60_000);
      expect(new Set(fake.runs.map((r) => r.key)).size).toBe(60);
    });

    it('spreads the overdue monitors of one takeover over a window sized by the most overdue of them', async () => {
      // A dead process's: m0 overdue by 8 s, m1 by only 0.5 s. Both share m0's 8 s, not m1's 2 s.
      const { fake, monitors, now } = await takeOver(2, 60, { m0: 68_000, m1: 60_500 });
      await e.advance(10_000, 100);
      const first = (key: string) => (fake.runs.find((r) => r.key === key)?.at ?? Number.NaN) - now;
      expect(first('m1')).toBeGreaterThanOrEqual(Math.floor(spread(monitors.m1!.id) * 8_000));
      expect(first('m1')).toBeLessThanOrEqual(Math.floor(spread(monitors.m1!.id) * 8_000) + 100);
    });

    it('runs a never-checked monitor at its own slot, so a shard moved while nothing ran it does not wait longer', async () => {
      await seed(e.opened.store, monitorsYaml(20, 60), Date.now());
      const fake = fakeProbe(0);
      const owned = new Set<string>();
      e.scheduler = e.runner({ probeFor: fake.probeFor, owns: (id) => owned.has(id) });
      await e.scheduler.start();
      const list = await e.opened.store.monitors.list((await e.opened.store.organizations.list())[0]!.id);
      const slotOf = new Map(list.map((m) => [m.key, firstSlot(m.id, 60_000, Date.now())]));
      // Taken over 20 s late (as if another process had held them meanwhile, never running them): each still runs at
      // the slot it had then, or one interval on if that passed, never an interval after this process took it.
      await e.advance(20_000);
      const takenAt = Date.now();
      for (const m of list) owned.add(m.id);
      await e.scheduler.reload();
      await e.advance(60_000, 100);
      for (const [key, slot] of slotOf) {
        const first = fake.runs.find((r) => r.key === key)?.at ?? Number.NaN;
        expect(first).toBe(slot >= takenAt ? slot : slot + 60_000);
      }
    });

    it('drops a monitor no longer owned before its next run, once its check in flight is recorded', async () => {
      const { monitors } = await seed(e.opened.store, monitorsYaml(2, 10), Date.now());
      let release = () => {};
      const probing = new Promise<void>((resolve) => {
        release = resolve;
      });
      const fake = fakeProbe(0, async () => {
        await probing;
        return { ok: true, latencyMs: 1 };
      });
      const owned = new Set([monitors.m0!.id, monitors.m1!.id]);
      e.scheduler = e.runner({ probeFor: fake.probeFor, owns: (id) => owned.has(id) });
      await e.scheduler.start();
      // Until m0's first check starts: it then hangs in its probe (for less than its 5 s timeout).
      for (let waited = 0; waited < 10_000 && !fake.runs.some((r) => r.key === 'm0'); waited += 100)
        await e.advance(100, 100);
      expect(fake.runs.filter((r) => r.key === 'm0')).toHaveLength(1);
      owned.delete(monitors.m0!.id);
      let dropped = false;
      const reloading = e.scheduler.reload().then(() => {
        dropped = true;
      });
      await e.advance(1_000);
      // m0's check is still running: the shard is not handed back before its result is in.
      expect(dropped).toBe(false);
      release();
      await e.advance(1_000);
      await reloading;
      expect(dropped).toBe(true);
      const checks = await e.opened.store.checks.list(monitors.m0!.id, { from: 0, to: Date.now() + 1, limit: 10 });
      expect(checks).toHaveLength(1);
      await e.advance(30_000);
      expect(fake.runs.filter((r) => r.key === 'm0')).toHaveLength(1);
      expect(fake.runs.filter((r) => r.key === 'm1').length).toBeGreaterThanOrEqual(3);
      expect(e.scheduler.stats().monitors).toBe(1);
    });
  });
}
