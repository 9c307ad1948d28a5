// Screens get their data through web/src/api/<resource>.ts: `npm run lint` (biome.json's GritQL plugin,
// web/lint/query-keys-in-api.grit) fails on a query key, or a read or write of the query cache by key, anywhere else.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from './time-scale.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIOME = join(ROOT, 'node_modules/.bin/biome');
const PLUGIN = 'web/lint/query-keys-in-api.grit';

const QUERY = "import { useQuery, useQueryClient } from '@tanstack/react-query';\n";

/** Files laid out as in the repository, linted with the repository's own configuration. */
const FILES: Record<string, string> = {
  'web/src/screens/literal-key.tsx': `${QUERY}export const A = () => useQuery({ queryKey: ['pages'], queryFn: () => 1 }).data;\n`,
  'web/src/screens/quoted-key.tsx': `${QUERY}export const A = () => useQuery({ 'queryKey': ['pages'], queryFn: () => 1 }).data;\n`,
  'web/src/screens/key-variable.tsx': `${QUERY}const queryKey = ['relays'];\nexport const A = () => useQuery({ queryKey, queryFn: () => 1 }).data;\n`,
  'web/src/screens/page/invalidates.tsx': `${QUERY}export function A() {\n  const client = useQueryClient();\n  return () => client.invalidateQueries({ predicate: () => true });\n}\n`,
  'web/src/ui/sets-data.tsx': `${QUERY}export function A() {\n  const client = useQueryClient();\n  return () => client.setQueryData(['auth', 'me'], null);\n}\n`,
  'web/src/screens/uses-module.tsx': `${QUERY}import { pagesQuery, pageChanged } from '../api/pages';\nexport function A() {\n  const client = useQueryClient();\n  const pages = useQuery({ ...pagesQuery('acme'), staleTime: 60_000 });\n  return () => pageChanged(client, 'acme', pages.data ? 'lobby' : 'main');\n}\n`,
  'web/src/api/pages.ts':
    "import { type QueryClient, queryOptions } from '@tanstack/react-query';\nexport const pagesQuery = (org: string) => queryOptions({ queryKey: ['org', org, 'pages'], queryFn: () => 1 });\nexport const pageChanged = (client: QueryClient, org: string, _slug: string) => client.invalidateQueries({ queryKey: ['org', org, 'pages'] });\n",
};

describe('npm run lint on the dashboard', () => {
  let dir: string;
  let report = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-lint-web-'));
    copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
    mkdirSync(dirname(join(dir, PLUGIN)), { recursive: true });
    copyFileSync(join(ROOT, PLUGIN), join(dir, PLUGIN));
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    report = await new Promise<string>((resolve) =>
      execFile(BIOME, ['lint', '--max-diagnostics=100', 'web'], { cwd: dir }, (_error, stdout, stderr) =>
        resolve(`${stdout}${stderr}`),
      ),
    );
  }, scaled(30_000));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const flagged = (path: string) => new RegExp(`${path.replace(/[.]/g, '\\.')}:\\d+:\\d+ plugin`).test(report);

  it('fails on a query key written in a screen or the shell, however it is written', () => {
    for (const path of [
      'web/src/screens/literal-key.tsx',
      'web/src/screens/quoted-key.tsx',
      'web/src/screens/key-variable.tsx',
    ])
      expect(flagged(path), path).toBe(true);
  });

  it('fails on the query cache read or written by key outside web/src/api', () => {
    expect(flagged('web/src/screens/page/invalidates.tsx')).toBe(true);
    expect(flagged('web/src/ui/sets-data.tsx')).toBe(true);
  });

  it('lets screens use the resource modules, and the modules build keys', () => {
    expect(flagged('web/src/screens/uses-module.tsx')).toBe(false);
    expect(flagged('web/src/api/pages.ts')).toBe(false);
  });
});
