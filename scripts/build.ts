// `npm run build` (and `npm ci`'s prepare): the server's modules compiled one to one (dist/<path>.js), the bundle with
// its code cache (scripts/bundle.ts) and the dashboard (web/, Vite), all written into a folder of their own that
// becomes dist/ in one rename once complete (scripts/builds.ts). A server or CLI command running meanwhile keeps the
// build it started with.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishBuild, startBuild } from './builds.js';

const root = fileURLToPath(new URL('../', import.meta.url));

// `npx warden` (npm exec) runs this checkout's bin by installing the checkout as a link in npm's own cache, the first
// time, and that install runs its prepare script: running a CLI command must not rebuild dist/ (npm ci and npm install
// say npm_command=ci and install).
if (process.argv.includes('--prepare') && process.env.npm_command === 'exec') process.exit(0);
// Loaded past that check: what a skipped prepare need not load.
const { bundleWarden } = await import('./bundle.js');
const { build: buildDashboard } = await import('vite');
const { build: esbuild } = await import('esbuild');

/**
 * src/ into `folder` one file to one, as `tsc -p tsconfig.build.json` laid it out (dist/cli/index.js, source maps
 * beside), by esbuild: each module compiled on its own, which tsconfig's isolatedModules and verbatimModuleSyntax
 * make exact (every type-only import says so). Checking the types is `tsc --noEmit`'s job (npm run typecheck, CI);
 * emitting with tsc took 26 of the build's 36 s here, esbuild about one. JSON modules (the RDAP bootstrap) are copied.
 */
async function compileServer(folder: string): Promise<void> {
  const src = join(root, 'src');
  const files = (readdirSync(src, { recursive: true }) as string[]).filter(
    (f) => (f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts')) || f.endsWith('.json'),
  );
  await esbuild({
    entryPoints: files.filter((f) => f.endsWith('.ts')).map((f) => join(src, f)),
    outdir: folder,
    outbase: src,
    format: 'esm',
    platform: 'node',
    // Node 20's syntax: ES2022 as tsconfig's target, and import attributes kept (`with { type: 'json' }`).
    target: 'node20.10',
    sourcemap: true,
    tsconfig: join(root, 'tsconfig.build.json'),
    logLevel: 'warning',
  });
  for (const json of files.filter((f) => f.endsWith('.json'))) cpSync(join(src, json), join(folder, json));
}

const folder = startBuild(root);
try {
  await compileServer(folder);
  await bundleWarden(folder);
  await buildDashboard({ configFile: join(root, 'web', 'vite.config.ts'), build: { outDir: join(folder, 'web') } });
  console.log(`dist → ${publishBuild(root, folder)}`);
} catch (error) {
  rmSync(folder, { recursive: true, force: true });
  throw error;
}
