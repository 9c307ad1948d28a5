// The layer boundaries hold by construction: `npm run lint` (this repository's biome.json) fails on a file that crosses one.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIOME = join(ROOT, 'node_modules/.bin/biome');

/** Files laid out as in the repository, linted with the repository's own configuration. */
const FILES: Record<string, string> = {
  'src/services/uses-kysely.ts': "import { sql } from 'kysely';\nexport const q = sql`select 1`;\n",
  'src/http/opens-store.ts': "import { openStore } from '../store/open-store.js';\nexport const open = openStore;\n",
  'src/runner/reads-repository.ts': "import { monitorRepository } from '../store/repositories/monitors.js';\nexport const r = monitorRepository;\n",
  'src/services/uses-seam.ts': "import type { Store } from '../store/index.js';\nexport type S = Store;\n",
  'src/store/repositories/uses-kysely.ts': "import { sql } from 'kysely';\nexport const q = sql`select 1`;\n",
  'src/main.ts': "import { openStore } from './store/open-store.js';\nexport const open = openStore;\n",
  'src/cli/session.ts': "import { openStore } from '../store/open-store.js';\nexport const open = openStore;\n",
};

describe('npm run lint', () => {
  let dir: string;
  let report = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-lint-'));
    copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
    // The configuration names the dashboard's plugin (test/lint-dashboard-queries.test.ts): Biome stops without it.
    mkdirSync(join(dir, 'web/lint'), { recursive: true });
    copyFileSync(join(ROOT, 'web/lint/query-keys-in-api.grit'), join(dir, 'web/lint/query-keys-in-api.grit'));
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    report = await new Promise<string>((resolve) =>
      execFile(BIOME, ['lint', '--max-diagnostics=100', 'src'], { cwd: dir }, (_error, stdout, stderr) => resolve(`${stdout}${stderr}`)),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const flagged = (path: string) => new RegExp(`${path.replace(/[.]/g, '\\.')}:\\d+:\\d+ lint/style/noRestrictedImports`).test(report);

  it('fails on kysely, or a store module other than its index, imported outside src/store', () => {
    expect(flagged('src/services/uses-kysely.ts')).toBe(true);
    expect(flagged('src/http/opens-store.ts')).toBe(true);
    expect(flagged('src/runner/reads-repository.ts')).toBe(true);
  });

  it('lets the store use kysely, everyone use the seam’s types, and the composition roots open a store', () => {
    for (const path of ['src/services/uses-seam.ts', 'src/store/repositories/uses-kysely.ts', 'src/main.ts', 'src/cli/session.ts'])
      expect(flagged(path), path).toBe(false);
  });
});
