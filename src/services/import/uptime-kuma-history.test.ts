// `warden import uptime-kuma KUMA.db --history` after `config apply`: Kuma's heartbeats become the page's daily bars and
// uptime, on every storage dialect; a second run replaces the first; Warden's own checks are never overwritten.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../../../test/app-harness.js';
import {
  buildKumaFixture,
  KUMA_FIXTURE_VERSIONS,
  withOperatorEnv,
} from '../../../test/fixtures/uptime-kuma/kuma-fixture.js';
import { dialects } from '../../../test/store-dialects.js';
import { importUptimeKumaCommand } from '../../cli/commands/import-uptime-kuma.js';
import { formatWardenYaml } from '../../config/write.js';
import { DAY_MS } from '../../domain/check.js';
import type { DailyBar } from '../../domain/snapshot.js';
import { openUptimeKumaDatabase } from '../../store/uptime-kuma.js';
import { loadGamedigGames } from './gamedig-games.js';
import { importUptimeKuma } from './uptime-kuma.js';

/** `config apply` runs at noon on 2026-11-20: the Kuma heartbeats of that day are Warden's to record, not the import's. */
const APPLIED = Date.UTC(2026, 10, 20, 12);
const TODAY = Date.UTC(2026, 10, 20);

const fixtures = Object.fromEntries(KUMA_FIXTURE_VERSIONS.map((version) => [version, buildKumaFixture(version)]));
const yaml: Record<string, string> = {};
beforeAll(async () => {
  const games = await loadGamedigGames();
  for (const [version, fixture] of Object.entries(fixtures)) {
    const kuma = openUptimeKumaDatabase(fixture.file);
    // The operator sets the ${KUMA_…} variables before `config apply`.
    yaml[version] = withOperatorEnv(formatWardenYaml(importUptimeKuma(kuma.read(), { now: APPLIED, games }).file));
    kuma.close();
  }
});
afterAll(() => {
  for (const fixture of Object.values(fixtures)) fixture.cleanup();
});

interface ComponentJson {
  monitor?: string;
  name: string;
  uptime: Record<string, number | null>;
  days: DailyBar[];
}

for (const dialect of dialects)
  for (const version of KUMA_FIXTURE_VERSIONS)
    describe.skipIf(!dialect.available)(`importing a Kuma ${version} history on ${dialect.name}`, () => {
      let harness: Harness;
      const saved = { ...process.env };
      let stdout = '';
      let stderr = '';
      const history = () =>
        importUptimeKumaCommand().parseAsync([fixtures[version]!.file, '--history'], { from: 'user' });
      const page = async () => {
        const response = await harness.request('/api/v1/status/status');
        expect(response.status).toBe(200);
        const json = (await response.json()) as { components: ComponentJson[] };
        return Object.fromEntries(json.components.map((c) => [c.name, c]));
      };
      const day = (component: ComponentJson | undefined, date: string) => component?.days.find((d) => d.date === date);

      beforeEach(async () => {
        harness = await startHarness(dialect, yaml[version]!, APPLIED);
        // The command opens the store the environment names, as `warden` does.
        Object.assign(process.env, harness.opened.env, { LOG_LEVEL: 'silent' });
        stdout = '';
        stderr = '';
        vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
          stdout += String(chunk);
          return true;
        });
        vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
          stderr += String(chunk);
          return true;
        });
      });
      afterEach(async () => {
        vi.restoreAllMocks();
        process.env = { ...saved };
        await harness.close();
      });

      it("fills the page's daily bars and uptime from the heartbeats before the monitors' first day in Warden", async () => {
        // Warden already checked the website once today: the import leaves today to Warden.
        await harness.opened.store.checks.write(
          [
            {
              monitorId: harness.monitors.website!.id,
              checkedAt: APPLIED + 60_000,
              ok: true,
              degraded: false,
              latencyMs: 80,
              message: null,
              error: null,
              data: null,
              source: 'edge',
              resultId: null,
            },
          ],
          [],
        );
        await harness.changeWatch.prime();
        await history();
        // A running server sees the import at its next poll of the change counter.
        expect(await harness.changeWatch.poll()).toBe(true);
        harness.clock.set(APPLIED + 3_600_000);
        const components = await page();
        const website = components.Website;
        expect(day(website, '2026-11-13')).toMatchObject({ checks: 0, uptime: null });
        expect(day(website, '2026-11-14')).toMatchObject({ checks: 1440, uptime: 1, state: 'operational' });
        // Down for 6 hours and pending for 20 minutes of the day's 1440 checks; pending counts as down, as in Kuma 2.x.
        expect(day(website, '2026-11-16')).toMatchObject({ checks: 1440, uptime: 1060 / 1440, downMinutes: 380 });
        // The hour under maintenance had no checks.
        expect(day(website, '2026-11-17')).toMatchObject({ checks: 1380, uptime: 1 });
        expect(day(website, '2026-11-19')).toMatchObject({ checks: 1440, uptime: 1 });
        expect(day(website, '2026-11-20')).toMatchObject({ checks: 1, uptime: 1 });
        expect(website?.uptime['7d']).toBeCloseTo((4 * 1440 + 1060 + 1380 + 1) / (5 * 1440 + 1380 + 1), 10);
        expect(website?.uptime['24h']).toBe(1);
        const lobby = components.Lobby;
        for (let t = Date.UTC(2026, 10, 14); t < TODAY; t += DAY_MS)
          expect(day(lobby, new Date(t).toISOString().slice(0, 10))).toMatchObject({ checks: 1440, uptime: 1 });
        expect(day(lobby, '2026-11-20')).toMatchObject({ checks: 0 });
        // A monitor Kuma has no heartbeats of keeps empty bars.
        expect(components['Shop keyword']?.days.every((d) => d.checks === 0)).toBe(true);
        // 6 days of 24 hours, less the hour under maintenance.
        expect(stdout).toContain(
          'website: 8580 heartbeats, 2026-11-14T00:00:00Z to 2026-11-19T23:59:00Z: 6 days, 143 hours',
        );
        expect(stdout).toContain('lobby: 8640 heartbeats');
        expect(stderr).toContain(
          'not filled: monitor "Browser check" (id 17): no monitor "browser-check" in the organization',
        );
      });

      it('replaces what an earlier run wrote instead of adding to it', async () => {
        await history();
        await history();
        const daily = await harness.opened.store.checks.bucketCounts(
          'day',
          [harness.monitors.website!.id],
          Date.UTC(2026, 10, 1),
          TODAY + DAY_MS,
        );
        expect(daily.map((b) => [new Date(b.start).toISOString().slice(0, 10), b.count, b.upCount]).sort()).toEqual([
          ['2026-11-14', 1440, 1440],
          ['2026-11-15', 1440, 1440],
          ['2026-11-16', 1440, 1060],
          ['2026-11-17', 1380, 1380],
          ['2026-11-18', 1440, 1440],
          ['2026-11-19', 1440, 1440],
        ]);
        const hourly = await harness.opened.store.checks.buckets(
          'hour',
          [harness.monitors.website!.id],
          Date.UTC(2026, 10, 16),
          Date.UTC(2026, 10, 16, 1),
        );
        expect(hourly).toEqual([expect.objectContaining({ count: 60, upCount: 0, latencyAvg: null })]);
        const up = await harness.opened.store.checks.buckets(
          'hour',
          [harness.monitors.website!.id],
          Date.UTC(2026, 10, 14),
          Date.UTC(2026, 10, 14, 1),
        );
        // Pings 100 to 159 ms, as Kuma measured them.
        expect(up).toEqual([
          expect.objectContaining({ count: 60, upCount: 60, latencyMin: 100, latencyMax: 159, latencyAvg: 129.5 }),
        ]);
      });
    });
