// The layer boundaries hold by construction: `npm run lint` (this repository's biome.json) fails on a file that crosses one.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIOME = join(ROOT, 'node_modules/.bin/biome');

/** One import across a layer line each (docs/architecture.md, who may import what), and one that stays within. */
const CROSSINGS: Record<string, string> = {
  'src/domain/imports-probes.ts': '../probes/registry.js',
  'src/domain/imports-net.ts': '../net/target-guard.js',
  'src/net/imports-probes.ts': '../probes/probe.js',
  'src/net/imports-services.ts': '../services/context.js',
  'src/render/imports-services.ts': '../services/pages/page-cache.js',
  'src/render/i18n/imports-store.ts': '../../store/index.js',
  'src/render/imports-net.ts': '../net/target-guard.js',
  'src/probes/imports-services.ts': '../services/monitors/run-check.js',
  'src/probes/codecs/imports-runner.ts': '../../runner/scheduler.js',
  'src/probes/imports-render.ts': '../render/forms.js',
  'src/services/monitors/imports-http.ts': '../../http/problem.js',
  'src/services/imports-mcp.ts': '../mcp/server.js',
  'src/services/accounts/imports-settings.ts': '../../config/settings.js',
  'src/services/imports-cli.ts': '../cli/index.js',
  'src/services/imports-main.ts': '../main.js',
  'src/runner/imports-services.ts': '../services/relays/notices.js',
  'src/runner/imports-http.ts': '../http/app.js',
  'src/notify/outbox/imports-services.ts': '../../services/context.js',
  'src/notify/dispatch/imports-runner.ts': '../../runner/ingest.js',
  'src/notify/channels/imports-config.ts': '../../config/settings.js',
  'src/mcp/imports-http.ts': '../http/openapi.js',
  'src/mcp/tools/imports-env.ts': '../../http/env.js',
};
const WITHIN: Record<string, string> = {
  'src/domain/imports-domain.ts': './ids.js',
  'src/net/imports-domain.ts': '../domain/security.js',
  'src/render/i18n/imports-render.ts': '../forms.js',
  'src/render/imports-domain.ts': '../domain/snapshot.js',
  'src/probes/codecs/imports-net.ts': '../../net/socket-exchange.js',
  'src/probes/imports-domain.ts': '../domain/monitor-type.js',
  'src/services/imports-probes.ts': '../probes/registry.js',
  'src/services/imports-render.ts': '../render/forms.js',
  'src/runner/imports-notify.ts': '../notify/outbox/outbox.js',
  'src/notify/channels/imports-net.ts': '../../net/http-get.js',
  'src/notify/outbox/imports-store.ts': '../../store/index.js',
  'src/mcp/tools/imports-services.ts': '../../services/pages/list-public-pages.js',
};
const importing = (specifier: string) => `import { thing } from '${specifier}';\nexport const used = thing;\n`;
const LAYERS = Object.fromEntries(
  Object.entries({ ...CROSSINGS, ...WITHIN }).map(([path, specifier]) => [path, importing(specifier)]),
);

/** Files laid out as in the repository, linted with the repository's own configuration. */
const FILES: Record<string, string> = {
  'src/services/uses-kysely.ts': "import { sql } from 'kysely';\nexport const q = sql`select 1`;\n",
  'src/http/opens-store.ts': "import { openStore } from '../store/open-store.js';\nexport const open = openStore;\n",
  'src/runner/reads-repository.ts':
    "import { monitorRepository } from '../store/repositories/monitors.js';\nexport const r = monitorRepository;\n",
  'src/services/uses-seam.ts': "import type { Store } from '../store/index.js';\nexport type S = Store;\n",
  'src/store/repositories/uses-kysely.ts': "import { sql } from 'kysely';\nexport const q = sql`select 1`;\n",
  'src/main.ts': "import { openStore } from './store/open-store.js';\nexport const open = openStore;\n",
  'src/cli/session.ts': "import { openStore } from '../store/open-store.js';\nexport const open = openStore;\n",
  // Another tool's database: the CLI opens it through its own entry, a verb may not.
  'src/cli/commands/opens-kuma.ts':
    "import { openUptimeKumaDatabase } from '../../store/uptime-kuma.js';\nexport const open = openUptimeKumaDatabase;\n",
  'src/services/import/opens-kuma.ts':
    "import { openUptimeKumaDatabase } from '../../store/uptime-kuma.js';\nexport const open = openUptimeKumaDatabase;\n",
  ...LAYERS,
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
      execFile(BIOME, ['lint', '--max-diagnostics=200', 'src'], { cwd: dir }, (_error, stdout, stderr) =>
        resolve(`${stdout}${stderr}`),
      ),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const flagged = (path: string) =>
    new RegExp(`${path.replace(/[.]/g, '\\.')}:\\d+:\\d+ lint/style/noRestrictedImports`).test(report);

  it('fails on kysely, or a store module other than its index, imported outside src/store', () => {
    expect(flagged('src/services/uses-kysely.ts')).toBe(true);
    expect(flagged('src/http/opens-store.ts')).toBe(true);
    expect(flagged('src/runner/reads-repository.ts')).toBe(true);
  });

  it('lets the store use kysely, everyone use the seam’s types, and the composition roots open a store', () => {
    for (const path of [
      'src/services/uses-seam.ts',
      'src/store/repositories/uses-kysely.ts',
      'src/main.ts',
      'src/cli/session.ts',
    ])
      expect(flagged(path), path).toBe(false);
  });

  it('lets only the CLI open another tool’s database, through its own entry', () => {
    expect(flagged('src/cli/commands/opens-kuma.ts')).toBe(false);
    expect(flagged('src/services/import/opens-kuma.ts')).toBe(true);
  });

  it.each(Object.entries(CROSSINGS))('fails on %s importing %s', (path) => {
    expect(flagged(path)).toBe(true);
  });

  it.each(Object.entries(WITHIN))('lets %s import %s', (path) => {
    expect(flagged(path)).toBe(false);
  });
});
