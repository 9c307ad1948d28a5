// Reading a SQLite file nobody vouches for: nothing in its schema runs, a table is read to a cap, the read to a deadline.
import { afterAll, describe, expect, it } from 'vitest';
import { buildHostileKuma, type HostileKuma } from '../../../test/fixtures/uptime-kuma/hostile-kuma.js';
import { buildKumaFixture } from '../../../test/fixtures/uptime-kuma/kuma-fixture.js';
import { createsPlainTable } from './foreign-sqlite.js';
import { KUMA_READ_LIMITS, NotKumaDatabaseError, openUptimeKumaDatabase } from './uptime-kuma.js';

const built: { cleanup(): void }[] = [];
afterAll(() => {
  for (const b of built) b.cleanup();
});
function hostile(kind: HostileKuma): string {
  const b = buildHostileKuma(kind);
  built.push(b);
  return b.file;
}

/** Opens and reads the file, as `warden import uptime-kuma` does; the time it took, and the error it threw. */
function importRead(file: string, limits = KUMA_READ_LIMITS) {
  const started = performance.now();
  try {
    const kuma = openUptimeKumaDatabase(file, limits);
    try {
      return { data: kuma.read(), beats: [...kuma.heartbeats(1, 0)], ms: performance.now() - started };
    } finally {
      kuma.close();
    }
  } catch (error) {
    return { error: error as Error, ms: performance.now() - started };
  }
}

describe('reading an Uptime Kuma database nobody vouches for', () => {
  for (const [kind, what] of [
    ['recursive-view', 'monitor is a view'],
    ['recursive-page-view', 'status_page is a view'],
    ['recursive-heartbeat-view', 'heartbeat is a view'],
    ['virtual-table', 'monitor is a virtual table'],
  ] as const)
    it(`refuses at once a database whose ${what}, naming it (${kind})`, () => {
      const file = hostile(kind);
      const result = importRead(file);
      expect(result.error).toBeInstanceOf(NotKumaDatabaseError);
      expect(result.error?.message).toBe(`${file}: ${what}; Uptime Kuma's are tables, and only tables are read`);
      expect(result.ms).toBeLessThan(1000);
    });

  it('reads no generated column: a costly one reads as absent, and the read stays quick', () => {
    const result = importRead(hostile('costly-generated-column'));
    expect(result.error).toBeUndefined();
    expect(result.data?.monitors).toHaveLength(50);
    expect(result.data?.monitors[0]).toMatchObject({ id: 1, name: '', url: 'https://example.com/0' });
    expect(result.ms).toBeLessThan(1000);
  });

  it('refuses a schema entry SQLite would not create (a generated column holding a recursive query), with triggers that never run', () => {
    const file = hostile('generated-recursive-query');
    const result = importRead(file);
    expect(result.error).toBeInstanceOf(NotKumaDatabaseError);
    expect(result.error?.message).toBe(
      `${file}: cannot be read as SQLite (malformed database schema (monitor) - subqueries prohibited in generated columns)`,
    );
    expect(result.ms).toBeLessThan(1000);
  });

  it('never computes a column default a row lacks: a costly one reads as null', () => {
    const result = importRead(hostile('costly-default'));
    expect(result.data?.monitors).toEqual([expect.objectContaining({ id: 1, name: 'Site', description: null })]);
    expect(result.ms).toBeLessThan(1000);
  });

  it('types every cell as the row declares it, whatever the file stored', () => {
    const { data } = importRead(hostile('wrong-kinds'));
    expect(
      data?.monitors.map(({ id, name, active, port, interval, weight }) => ({
        id,
        name,
        active,
        port,
        interval,
        weight,
      })),
    ).toEqual([
      { id: 1, name: '', active: false, port: null, interval: 60, weight: 1.5 },
      { id: 2, name: '42', active: true, port: 8080, interval: null, weight: 2 },
    ]);
  });

  it('refuses a row without an integer id, naming the table and the row', () => {
    const file = hostile('text-id');
    expect(importRead(file).error?.message).toBe(`${file}: table monitor, row 1: id is not an integer`);
  });

  it('refuses a table holding more rows than the cap, and a read past its time limit', () => {
    const fixture = buildKumaFixture('2.x');
    built.push(fixture);
    expect(importRead(fixture.file, { ...KUMA_READ_LIMITS, rowsPerTable: 3 }).error?.message).toMatch(
      /: table \w+ holds more than 3 rows$/,
    );
    expect(importRead(fixture.file, { ...KUMA_READ_LIMITS, readMs: 0 }).error?.message).toBe(
      `${fixture.file}: reading it took longer than 0 s`,
    );
    expect(importRead(fixture.file).error).toBeUndefined();
  });

  it('tells a plain CREATE TABLE from a virtual one, comments or not', () => {
    expect(createsPlainTable('CREATE TABLE monitor (id integer)')).toBe(true);
    expect(createsPlainTable('create /* a */ table\n"monitor"(id)')).toBe(true);
    expect(createsPlainTable('CREATE VIRTUAL TABLE monitor USING fts5(name)')).toBe(false);
    expect(createsPlainTable('CREATE/**/VIRTUAL TABLE monitor USING fts5(name)')).toBe(false);
    expect(createsPlainTable('CREATE -- table\nVIRTUAL TABLE monitor USING fts5(name)')).toBe(false);
    expect(createsPlainTable('CREATE VIEW monitor AS SELECT 1')).toBe(false);
  });
});
