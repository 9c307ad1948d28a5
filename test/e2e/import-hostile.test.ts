// `warden import` given files written to hang or crash it, as an operator would run it: the built CLI answers each with
// a validation message naming what is wrong, in seconds, or imports what it can.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-process.js';
import { buildHostileKuma, type HostileKuma } from '../fixtures/uptime-kuma/hostile-kuma.js';

const work = mkdtempSync(join(tmpdir(), 'warden-import-hostile-'));
/** Where SQLite puts its temporary files for these runs (an endless sorted view fills it). */
const sqliteTemp = join(work, 'sqlite-tmp');
mkdirSync(sqliteTemp);
const built: { cleanup(): void }[] = [];
afterAll(() => {
  for (const b of built) b.cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** A hang fails the run at this limit, well before the test's own. */
const RUN_MS = 15_000;

function hostile(kind: HostileKuma): string {
  const b = buildHostileKuma(kind);
  built.push(b);
  return b.file;
}

describe('warden import uptime-kuma with a hostile database', () => {
  it('refuses an 8 KB database whose monitor table is an endless recursive view, at once, writing nothing', async () => {
    const file = hostile('recursive-view');
    expect(statSync(file).size).toBe(8192);
    const output = join(work, 'view.yaml');
    const started = Date.now();
    const { code, stdout, stderr } = await runCli(
      ['import', 'uptime-kuma', file, '-o', output],
      { SQLITE_TMPDIR: sqliteTemp },
      RUN_MS,
    );
    expect(code).toBe(1);
    expect(stderr).toBe(
      `error: ${file} is not an Uptime Kuma database.\n  - ${file}: ${file}: monitor is a view; Uptime Kuma's are tables, and only tables are read\n`,
    );
    expect(stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(RUN_MS);
    expect(existsSync(output)).toBe(false);
    expect(readdirSync(sqliteTemp)).toEqual([]);
  });

  it('refuses with --history a database whose heartbeat table is an endless view', async () => {
    const file = hostile('recursive-heartbeat-view');
    const { code, stderr } = await runCli(['import', 'uptime-kuma', file, '--history'], {}, RUN_MS);
    expect(code).toBe(1);
    expect(stderr).toContain(`${file}: heartbeat is a view; Uptime Kuma's are tables, and only tables are read`);
  });

  it('refuses a schema entry that holds a recursive query in a generated column, naming the table', async () => {
    const file = hostile('generated-recursive-query');
    const { code, stderr } = await runCli(['import', 'uptime-kuma', file], {}, RUN_MS);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `${file}: cannot be read as SQLite (malformed database schema (monitor) - subqueries prohibited in generated columns)`,
    );
  });

  it('imports the monitors of a database whose names are costly generated columns, without computing them', async () => {
    const file = hostile('costly-generated-column');
    const output = join(work, 'generated.yaml');
    const { code, stderr } = await runCli(['import', 'uptime-kuma', file, '-o', output], {}, RUN_MS);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`${output}: 50 monitors, 0 pages`);
  });

  it('refuses a monitor row without an integer id, naming the row', async () => {
    const file = hostile('text-id');
    const { code, stderr } = await runCli(['import', 'uptime-kuma', file], {}, RUN_MS);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `error: ${file} cannot be imported.\n  - ${file}: ${file}: table monitor, row 1: id is not an integer\n`,
    );
  });
});

describe('warden import gatus with a hostile configuration', () => {
  const gatus = (type: string) => {
    const file = join(work, `gatus-${type}.yaml`);
    writeFileSync(
      file,
      `alerting:\n  ${type}:\n    webhook-url: https://hooks.example.com/x\nendpoints:\n  - name: web\n    url: https://example.com\n    conditions: ["[STATUS] == 200"]\n    alerts:\n      - type: ${type}\n`,
    );
    return file;
  };

  for (const type of ['__proto__', 'toString'])
    it(`answers an alert type ${type} with a validation message naming both fields`, async () => {
      const { code, stdout, stderr } = await runCli(['import', 'gatus', gatus(type)], {}, RUN_MS);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      const reason = `"${type}" is not a Gatus alerting provider (lowercase letters, digits and hyphens, as slack or teams-workflows)`;
      expect(stderr).toBe(
        `error: The Gatus configuration names alerting providers Gatus does not have.\n  - alerting.${type}: ${reason}\n  - endpoints[0].alerts[0].type: ${reason}\n`,
      );
    });

  it('reports an alert type constructor as a provider Warden has no channel for, and imports the rest', async () => {
    const { code, stdout, stderr } = await runCli(['import', 'gatus', gatus('constructor')], {}, RUN_MS);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('alerting.constructor: Warden has no constructor channel; its alerts are not imported');
    expect(stdout).toContain('key: web');
    expect(stdout).not.toContain('notifications:');
  });
});
