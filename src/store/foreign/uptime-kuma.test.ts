// Reading an Uptime Kuma database: both schema generations, columns one lacks, streamed heartbeats, read-only access.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { buildKumaFixture, KUMA_FIXTURE_VERSIONS } from '../../../test/fixtures/uptime-kuma/kuma-fixture.js';
import { NotKumaDatabaseError, openUptimeKumaDatabase, parseKumaTime } from './uptime-kuma.js';

const fixtures = KUMA_FIXTURE_VERSIONS.map((version) => ({ version, ...buildKumaFixture(version) }));
afterAll(() => {
  for (const f of fixtures) f.cleanup();
});

describe('reading an Uptime Kuma database', () => {
  for (const fixture of fixtures) {
    it(`reads monitors, pages, maintenance and notifications of a ${fixture.version} database`, () => {
      const kuma = openUptimeKumaDatabase(fixture.file);
      const data = kuma.read();
      kuma.close();
      expect(data.schema).toBe(fixture.version);
      const website = data.monitors.find((m) => m.id === 1);
      expect(website).toMatchObject({
        name: 'Website',
        type: 'http',
        active: true,
        ignore_tls: true,
        expiry_notification: false,
        timeout: 48,
        maxretries: 2,
      });
      expect(data.monitors.find((m) => m.id === 19)?.active).toBe(false);
      // json_path_operator arrived in 2.x; 1.23 has no such column, which reads as null.
      expect(data.monitors.find((m) => m.id === 4)?.json_path_operator).toBe(fixture.version === '2.x' ? '==' : null);
      expect(data.monitors.find((m) => m.id === 11)?.game).toBe(fixture.version === '2.x' ? 'mbe' : 'minecraftbe');
      expect(data.statusPages.map((p) => [p.slug, p.published, p.analytics_id])).toEqual([
        ['status', true, null],
        ['Internal', false, 'G-123'],
      ]);
      expect(data.pageGroups.filter((g) => g.status_page_id === 1).map((g) => g.name)).toEqual([
        'Web',
        'Game servers',
        'Infrastructure',
      ]);
      expect(data.tags).toEqual([
        { monitor_id: 1, name: 'env', value: 'prod' },
        { monitor_id: 5, name: 'Critical', value: null },
      ]);
      expect(data.maintenanceMonitors).toContainEqual({ left: 1, right: 9 });
      expect(data.monitorNotifications).toContainEqual({ left: 9, right: 1 });
    });
  }

  it('streams a monitor’s heartbeats from a time on, oldest first, as epoch milliseconds', () => {
    const kuma = openUptimeKumaDatabase(fixtures[0]!.file);
    const beats = [...kuma.heartbeats(1, Date.UTC(2026, 10, 20, 23, 57))];
    kuma.close();
    expect(beats).toEqual([
      { at: Date.UTC(2026, 10, 20, 23, 57), status: 1, ping: 157 },
      { at: Date.UTC(2026, 10, 20, 23, 58), status: 1, ping: 158 },
      { at: Date.UTC(2026, 10, 20, 23, 59), status: 1, ping: 159 },
    ]);
  });

  it('opens the file read-only', () => {
    const { file } = fixtures[0]!;
    const before = readFileSync(file);
    const kuma = openUptimeKumaDatabase(file);
    kuma.read();
    expect([...kuma.heartbeats(9, 0)]).toHaveLength(7 * 1440);
    kuma.close();
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a file that is not an Uptime Kuma database, naming it', () => {
    const dir = join(fixtures[0]!.file, '..');
    const other = join(dir, 'other.db');
    const db = new SqliteDatabase(other);
    db.exec('create table monitors (id integer)');
    db.close();
    expect(() => openUptimeKumaDatabase(other)).toThrow(NotKumaDatabaseError);
    expect(() => openUptimeKumaDatabase(other)).toThrow('not an Uptime Kuma database');
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello, this is not SQLite at all'.repeat(10));
    expect(() => openUptimeKumaDatabase(text)).toThrow(NotKumaDatabaseError);
    expect(() => openUptimeKumaDatabase(join(dir, 'missing.db'))).toThrow(NotKumaDatabaseError);
  });

  it('reads Kuma’s UTC times with or without milliseconds', () => {
    expect(parseKumaTime('2026-11-14 00:10:00.000')).toBe(Date.UTC(2026, 10, 14, 0, 10));
    expect(parseKumaTime('2026-11-14 00:10:05')).toBe(Date.UTC(2026, 10, 14, 0, 10, 5));
    expect(parseKumaTime('garbage')).toBeNull();
  });
});
