// An Uptime Kuma database written to break the importer: each text a monitor, page, incident, maintenance or
// notification row holds replaced by JSON or names that shadow Object.prototype's members. The reader types every cell
// (foreign-sqlite.ts); what the importer parses from those texts must still end in a report, never a crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKumaFixture } from '../../../test/fixtures/uptime-kuma/kuma-fixture.js';
import { configFileSchema } from '../../config/file-schema.js';
import { formatWardenYaml } from '../../config/write.js';
import type { KumaData } from '../../store/index.js';
import { openUptimeKumaDatabase } from '../../store/uptime-kuma.js';
import { loadGamedigGames } from './gamedig-games.js';
import { type ImportReport, importHeader } from './report.js';
import { importUptimeKuma } from './uptime-kuma.js';
import type { GamedigLookup } from './uptime-kuma-monitors.js';

const HOSTILE_TEXT = [
  '{"toString": 1, "valueOf": 1, "__proto__": {"polluted": 1}, "constructor": {"x": 1}}',
  '[[{"toString": 1}]]',
  '__proto__',
  'constructor',
];
/** What a JSON column's fields are set to: objects that cannot be turned into text or a number the usual way. */
const HOSTILE_FIELD: unknown[] = [
  { toString: 1, valueOf: 1 },
  JSON.parse('{"__proto__": {"polluted": 1}}'),
  [[1]],
  null,
  true,
  '__proto__',
];

const fixture = buildKumaFixture('2.x');
let data: KumaData;
let games: GamedigLookup;
beforeAll(async () => {
  games = await loadGamedigGames();
  const kuma = openUptimeKumaDatabase(fixture.file);
  data = kuma.read();
  kuma.close();
});
afterAll(() => fixture.cleanup());

/** Imports as `warden import uptime-kuma` goes on: the file is checked, then written with its report as a header. */
function importAll(changed: KumaData): ImportReport {
  const report = importUptimeKuma(changed, { now: Date.UTC(2026, 10, 20), games });
  configFileSchema.safeParse(report.file);
  formatWardenYaml(report.file, importHeader('kuma.db', report));
  for (const note of [...report.skipped, ...report.approximated])
    if (typeof note.item !== 'string' || typeof note.reason !== 'string')
      throw new Error(`a note that is not text: ${note.item}`);
  return report;
}

const TABLES = [
  'monitors',
  'statusPages',
  'pageGroups',
  'incidents',
  'maintenance',
  'notifications',
  'tags',
  'customDomains',
] as const;

describe('importing a hostile Uptime Kuma database', () => {
  it('reports instead of crashing whatever text a row holds', () => {
    const failures: string[] = [];
    for (const table of TABLES) {
      const columns = new Set(
        data[table].flatMap((row) =>
          Object.entries(row).flatMap(([column, value]) => (typeof value === 'string' ? [column] : [])),
        ),
      );
      for (const column of columns)
        for (const text of HOSTILE_TEXT) {
          // Every row of the table at once: each monitor type meets the text on its own path.
          const rows = data[table].map((row) =>
            typeof (row as unknown as Record<string, unknown>)[column] === 'string' ? { ...row, [column]: text } : row,
          );
          try {
            importAll({ ...data, [table]: rows });
          } catch (error) {
            failures.push(`${table}.${column} = ${text}: ${(error as Error).message}`);
          }
        }
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports instead of crashing whatever a notification’s JSON configuration holds', () => {
    const failures: string[] = [];
    for (const [i, row] of data.notifications.entries()) {
      const config = JSON.parse(row.config ?? '{}') as Record<string, unknown>;
      for (const field of Object.keys(config))
        for (const value of HOSTILE_FIELD) {
          const changed = `{${Object.entries(config)
            .map(
              ([k, v]) =>
                `${JSON.stringify(k)}: ${k === field ? (JSON.stringify(value) ?? 'null').replace('"polluted"', '"__proto__": {}, "polluted"') : JSON.stringify(v)}`,
            )
            .join(', ')}}`;
          const notifications = data.notifications.map((n, j) => (j === i ? { ...n, config: changed } : n));
          try {
            importAll({ ...data, notifications });
          } catch (error) {
            failures.push(
              `notifications[${i}].config.${field} = ${JSON.stringify(value)}: ${(error as Error).message}`,
            );
          }
        }
    }
    expect(failures).toEqual([]);
  });

  it('takes a monitor type or a notification type named after Object.prototype’s members as one Warden lacks', () => {
    const report = importAll({
      ...data,
      monitors: data.monitors.map((m) =>
        m.id === 1 ? { ...m, type: 'constructor' } : m.id === 2 ? { ...m, type: 'toString' } : m,
      ),
      notifications: data.notifications.map((n, i) =>
        i === 0
          ? { ...n, config: '{"type": "__proto__"}' }
          : i === 1
            ? { ...n, config: '{"type": "hasOwnProperty"}' }
            : n,
      ),
    });
    const reasons = report.skipped.map((note) => note.reason);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Warden has no __proto__ channel \(webhook, discord, .+ and \w+ are its channels\)$/),
        expect.stringMatching(
          /^Warden has no hasOwnProperty channel \(webhook, discord, .+ and \w+ are its channels\)$/,
        ),
      ]),
    );
    expect(
      report.skipped.filter((note) => /^monitor ".*" \(id [12]\)$/.test(note.item)).map((note) => note.reason),
    ).toEqual([expect.stringContaining('constructor'), expect.stringContaining('toString')]);
  });
});
