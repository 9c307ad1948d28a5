// `npm run build` (and `npm ci`'s prepare): tsc's output of the server, the bundle with its code cache
// (scripts/bundle.ts) and the dashboard (web/, Vite), all written into a folder of their own that becomes dist/ in one
// rename once complete (scripts/builds.ts). A server or CLI command running meanwhile keeps the build it started with.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
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

const folder = startBuild(root);
try {
  const tsc = spawnSync(
    process.execPath,
    [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', folder],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (tsc.status !== 0) throw new Error(`tsc failed (exit code ${tsc.status})`);
  await bundleWarden(folder);
  await buildDashboard({ configFile: join(root, 'web', 'vite.config.ts'), build: { outDir: join(folder, 'web') } });
  console.log(`dist → ${publishBuild(root, folder)}`);
} catch (error) {
  rmSync(folder, { recursive: true, force: true });
  throw error;
}
