// `warden import uptime-kuma`: what a 1.23 and a 2.x database become in warden.yaml, and what is reported instead
// (status pages and notifications: uptime-kuma-pages.test.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildKumaFixture,
  KUMA_FIXTURE_VERSIONS,
  operatorEnv,
} from '../../../test/fixtures/uptime-kuma/kuma-fixture.js';
import { importKumaFixture, NOW } from '../../../test/fixtures/uptime-kuma/kuma-import.js';
import { importUptimeKumaCommand } from '../../cli/commands/import-uptime-kuma.js';
import { parseConfigText } from '../../config/load.js';
import { openUptimeKumaDatabase } from '../../store/uptime-kuma.js';
import type { ImportReport } from './report.js';
import { importUptimeKuma, kumaMonitorKeys } from './uptime-kuma.js';
import type { GamedigLookup } from './uptime-kuma-monitors.js';

/** Every secret the fixture's Kuma database holds: none may reach the file. */
const KUMA_SECRETS = [
  'SECRET-TOKEN',
  'XYZSECRET',
  'mail-secret',
  'hunter2',
  'abc123',
  'tk_secret',
  'k8sPushT0ken1234',
  'ABCDEFGHIJKLMNOP',
  'hook-secret',
  'pg-secret',
  'my-secret',
  'redis-secret',
  'mongo-secret',
  'mssql-secret',
  'mqtt-secret',
  'rabbit-secret',
];

for (const version of KUMA_FIXTURE_VERSIONS) {
  describe(`importing an Uptime Kuma ${version} database`, () => {
    const fixture = buildKumaFixture(version);
    afterAll(() => fixture.cleanup());
    let games: GamedigLookup;
    let report: ImportReport;
    let text: string;
    let monitors: Record<string, Record<string, unknown>>;
    const configOf = (key: string) => monitors[key]?.config as Record<string, unknown>;
    const skipped = (item: string) => report.skipped.find((n) => n.item.startsWith(item))?.reason;
    const approximated = (item: string) =>
      report.approximated.filter((n) => n.item.startsWith(item)).map((n) => n.reason);

    beforeAll(async () => {
      ({ games, report, text, monitors } = await importKumaFixture(fixture.file));
    });

    it('writes a warden.yaml that loads once its ${ENV} placeholders are set, and holds none of Kuma’s secrets', () => {
      const config = parseConfigText(text, 'kuma.yaml', {
        ...operatorEnv(text),
        KUMA_OPS_DISCORD_URL_TOKEN: 'discord-token',
      });
      expect(config.organization).toMatchObject({ key: 'acme', name: 'Uptime Kuma' });
      expect(config.notifications.find((c) => c.key === 'ops-discord')?.config).toEqual({
        url: 'https://discord.com/api/webhooks/123456789/discord-token',
      });
      for (const secret of KUMA_SECRETS) expect(text).not.toContain(secret);
      expect(() => parseConfigText(text, 'kuma.yaml', {})).toThrow('KUMA_OPS_DISCORD_URL_TOKEN is not set');
    });

    it('maps http, keyword, JSON query, port, DNS and push monitors with their schedule and expectations', () => {
      expect(monitors.website).toMatchObject({
        type: 'http',
        intervalSec: 60,
        timeoutMs: 48_000,
        retries: 2,
        tags: ['env-prod'],
      });
      expect(configOf('website')).toEqual({
        url: 'https://www.example.com/',
        expectedStatus: ['200-299', '301'],
        maxRedirects: 5,
        ignoreTls: true,
        certExpiryDays: 0,
      });
      expect(configOf('shop-keyword')).toMatchObject({ keyword: 'Add to cart' });
      expect(configOf('no-errors')).toMatchObject({ notKeyword: 'Error' });
      expect(configOf('no-errors').keyword).toBeUndefined();
      expect(configOf('api-health')).toMatchObject({
        method: 'POST',
        body: '{"deep":true}',
        jsonPath: '$.status',
        jsonExpected: 'ok',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(monitors['proxy-port']).toMatchObject({
        type: 'tcp',
        tags: ['critical'],
        config: { host: '10.0.0.5', port: 25577 },
      });
      expect(monitors['mail-dns']).toMatchObject({
        type: 'dns',
        config: { hostname: 'example.com', recordType: 'MX', resolver: '1.1.1.1' },
      });
      expect(monitors['nightly-backup']).toEqual({
        key: 'nightly-backup',
        name: 'Nightly backup',
        type: 'heartbeat',
        runOn: 'push',
        config: { graceSec: 90_000 },
      });
      expect(approximated('monitor "Nightly backup"').join()).toContain("Kuma's token cannot be kept");
      expect(monitors['paused-site']?.enabled).toBe(false);
      expect(configOf('secure-api').headers).toEqual({
        'X-Api-Key': '${KUMA_SECURE_API_HEADER_X_API_KEY}',
        Accept: 'application/json',
        Authorization: 'Basic ${KUMA_SECURE_API_BASIC_AUTH}',
      });
    });

    it('runs games Warden speaks natively as its own types, and any other through GameDig on a relay', () => {
      expect(monitors.lobby).toMatchObject({ type: 'minecraft-java', config: { host: 'mc.example.com', port: 25565 } });
      expect(monitors.bedrock).toMatchObject({
        type: 'minecraft-bedrock',
        tags: ['eu'],
        config: { host: 'bedrock.example.com', port: 19132 },
      });
      expect(monitors.cs2).toMatchObject({ type: 'source', config: { host: 'cs.example.com', port: 27015 } });
      expect(monitors.roleplay).toMatchObject({ type: 'fivem', config: { host: 'fivem.example.com', port: 30120 } });
      expect(monitors.valheim).toMatchObject({ type: 'source', config: { port: 2457 } });
      expect(monitors['steam-server']).toMatchObject({
        type: 'source',
        config: { host: 'tf2.example.com', port: 27015 },
      });
      // GameDig 4's "terraria" is GameDig 5's "terrariatshock".
      expect(monitors.terraria).toMatchObject({
        type: 'gamedig',
        runOn: 'relay',
        relay: 'gamedig',
        config: { game: 'terrariatshock', port: 7878 },
      });
      expect(report.file.relays).toEqual([{ key: 'gamedig', name: 'GameDig relay (imported from Uptime Kuma)' }]);
    });

    it('lists every monitor, maintenance and notification it did not import, with the reason', () => {
      expect(skipped('monitor "Browser check"')).toContain('no browser-rendering monitor');
      expect(skipped('monitor "Legacy SQL"')).toContain('no SQL Server monitor');
      expect(skipped('monitor "Tailnet NAS"')).toContain('no Tailscale monitor');
      expect(skipped('monitor "Events"')).toContain('no Kafka monitor');
      expect(skipped('monitor "Inverted"')).toContain('upside-down');
      expect(skipped('maintenance "Weekly reboot"')).toBeUndefined();
      expect(skipped('maintenance "Router swap"')).toContain('on no imported status page');
      expect(skipped('notification "Pager"')).toBeUndefined();
      expect((report.file.notifications as { key: string }[]).find((c) => c.key === 'pager')).toMatchObject({
        type: 'pushover',
        config: { token: '${KUMA_PAGER_APP_TOKEN}', user: '${KUMA_PAGER_USER_KEY}' },
      });
      if (version === '2.x') expect(skipped('monitor "Status board"')).toContain('a manual monitor checks nothing');
      // Every Kuma monitor is accounted for: imported, skipped, or (a group) reported as approximated.
      const kuma = openUptimeKumaDatabase(fixture.file);
      const rows = kuma.read().monitors;
      kuma.close();
      const keys = kumaMonitorKeys({ monitors: rows });
      for (const row of rows) {
        const item = `${row.type === 'group' ? 'group' : 'monitor'} "${row.name}" (id ${row.id})`;
        const accounted =
          monitors[keys.get(row.id)!] !== undefined ||
          report.skipped.some((n) => n.item === item) ||
          row.type === 'group';
        expect(accounted, item).toBe(true);
      }
      expect(text).toContain('# Not imported (');
      expect(text).toContain('#   - monitor "Browser check" (id 17): Warden has no browser-rendering monitor');
    });

    it('makes unique keys from names, the same on every run', () => {
      expect(monitors.website?.name).toBe('Website');
      expect(monitors['website-2']).toMatchObject({ name: 'Website', type: 'tcp' });
      const kuma = openUptimeKumaDatabase(fixture.file);
      const again = importUptimeKuma(kuma.read(), { now: NOW + 1, games });
      kuma.close();
      expect((again.file.monitors as { key: string }[]).map((m) => m.key)).toEqual(Object.keys(monitors));
    });
  });
}

describe('the uptime-kuma command', () => {
  const fixture = buildKumaFixture('1.23');
  afterAll(() => fixture.cleanup());
  const run = (...args: string[]) => importUptimeKumaCommand().parseAsync(args, { from: 'user' });

  it('refuses a file that is not an Uptime Kuma database, naming it, and writes nothing', async () => {
    const other = join(fixture.file, '..', 'warden.yaml');
    writeFileSync(other, 'organization: { name: Acme }\n');
    const output = join(fixture.file, '..', 'out.yaml');
    await expect(run(other, '-o', output)).rejects.toMatchObject({
      message: `${other} is not an Uptime Kuma database.`,
      issues: [{ path: other, message: expect.stringContaining('cannot be read as SQLite') }],
    });
    await expect(run(join(fixture.file, '..', 'missing.db'))).rejects.toThrow('is not an Uptime Kuma database');
  });

  it('writes buckets with --history, not a file', async () => {
    await expect(run(fixture.file, '--history', '-o', 'x.yaml')).rejects.toMatchObject({
      issues: [{ path: '--output', message: 'not used with --history' }],
    });
  });
});
