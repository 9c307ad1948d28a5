// `npm run build` step (scripts/build.ts): the `warden` command as one CommonJS script (dist/bundle/warden.cjs) run by a
// small launcher (dist/bundle/warden.js) from V8's code cache, so a production start reads three files instead of ~900
// and compiles almost nothing. `tsx src/cli/index.ts` stays the dev path.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
/** What the code cache's warm-up run asks for: the start-up path and the forms most read. */
const WARM_PATHS = ['/api/v1/status/demo', '/s/demo', '/s/demo/status.md', '/s/demo/badge.svg', '/healthz', '/readyz'];

/**
 * The warm-up run's warden.yaml: the demo's page, read from a file as a production start reads one, so the YAML reader,
 * ${VAR} substitution and the file's validation are in the code cache too (a start with a 100-monitor file spent ~20 ms
 * compiling them). Block and flow style both, since the reader has a path for each.
 */
const WARM_CONFIG = `organization:
  key: demo
  name: \${WARDEN_WARMUP_NAME:-Warden demo}
monitors:
  - key: demo-http
    name: Warden web server
    type: http
    intervalSec: 30
    config: { url: "http://127.0.0.1:9/healthz", keyword: ok }
  - { key: demo-tcp, name: Warden TCP port, type: tcp, intervalSec: 30, config: { host: 127.0.0.1, port: 9 } }
  - { key: demo-heartbeat, name: Demo heartbeat, type: heartbeat, pushToken: wdp_warmupWarmupWarmup01, config: { graceSec: 90 } }
pages:
  - slug: demo
    title: Warden demo
    description: A warm-up page.
    components:
      - { name: Website, monitor: demo-http, group: Web, description: GET /healthz over HTTP }
      - { name: TCP port, monitor: demo-tcp, group: Web }
      - name: Heartbeat
        monitor: demo-heartbeat
        group: Jobs
`;

/**
 * Left to node_modules at run time: native addons, packages that locate files or workers beside their own code, and
 * large ones only some deployments load (each still loaded on first use, by a dynamic import). pino is inside: its
 * worker-thread transports are what would look for files beside it, and Warden writes through `pino.destination`
 * and an in-process pino-pretty, never a transport. Loaded from node_modules, pino and its ten dependencies cost a
 * start ~15 ms of resolving and compiling (the overview's profile: 17 ms for the logger module, 0.6–2.7 inside).
 */
const EXTERNAL = [
  'better-sqlite3',
  'pg',
  'pg-native',
  '@resvg/resvg-js',
  'satori',
  'pino-pretty',
  'gamedig',
  // Its font-width tables (1 MB) are quicker to load as the JSON they ship as than parsed as JavaScript.
  'badge-maker',
  'ioredis',
  // The MCP SDK and Ajv, which it validates tool schemas with: ~0.45 MB of source held in memory by every process,
  // for the /mcp endpoint only.
  '@modelcontextprotocol/sdk',
  'openapi-explorer',
  '@fontsource/inter',
  'nodemailer',
  'openid-client',
  'bufferutil',
  'utf-8-validate',
];

/**
 * Code that finds files relative to its own module (docs/, dist/web, package.json) keeps finding them: each source
 * file's `import.meta.url` becomes the URL its compiled module (dist/<path>.js) has, computed from the bundle's own.
 */
function compiledLocation(distDir: string, outDir: string): Plugin {
  return {
    name: 'compiled-location',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const compiled = relative(
          outDir,
          join(distDir, relative(`${root}src`, args.path).replace(/\.ts$/, '.js')),
        ).replaceAll('\\', '/');
        return {
          contents: source.replaceAll(
            'import.meta.url',
            `new URL(${JSON.stringify(compiled)}, __wardenBundleUrl).href`,
          ),
          loader: 'ts',
        };
      });
    },
  };
}

/**
 * Writes the bundle, its launcher and its code cache into `distDir`/bundle: `distDir` is the folder a build fills (at
 * the depth of dist/, scripts/builds.ts), whose bundle the warm-up run starts.
 */
export async function bundleWarden(distDir: string): Promise<void> {
  const outDir = join(distDir, 'bundle');
  // Last build's files must not linger beside this one's (an old cache would be refused, but why read it).
  await rm(outDir, { recursive: true, force: true });
  // The whole command as one CommonJS script: Node 20 keeps no compiled code for ES modules, but a script compiled with
  // vm.Script takes V8's code cache, which the launcher below reads (half the compile and lazy-compile time of a start).
  // One file, no chunks: what a command does not run stays wrapped and is only pre-parsed, or comes from the cache.
  const result = await build({
    absWorkingDir: root,
    entryPoints: { warden: 'src/cli/index.ts' },
    outdir: outDir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    minifyWhitespace: true,
    minifySyntax: true,
    external: EXTERNAL,
    // What the rewritten import.meta.url above resolves against: this file's own URL.
    banner: { js: 'var __wardenBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [compiledLocation(distDir, outDir)],
    metafile: true,
    logLevel: 'warning',
  });
  // The launcher (`warden`, `npm start`): an ES module like the rest of the package, that runs the script above.
  await build({
    absWorkingDir: root,
    entryPoints: { warden: 'src/cli/launch.ts' },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });

  await requireLatin1(join(outDir, 'warden.cjs'));
  const bytes = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('/warden.cjs'))?.[1].bytes ?? 0;
  const cache = await writeCodeCache(outDir);
  console.log(
    `bundled ${join(relative(root, distDir), 'bundle')}/warden.cjs (${Math.round(bytes / 1024)} KiB)${cache ? `, code cache ${Math.round(cache / 1024)} KiB` : ''}`,
  );
}

/**
 * Runs the bundled server once on a throwaway data directory with a file like the demo (WARM_CONFIG), asks for what a
 * start and the first readers run (status JSON, the page, its Markdown and badge, compressed and not), and stops it: on
 * exit the launcher writes V8's compiled code beside the bundle. Nothing of the caller's environment goes in (no
 * database, config file or V8 flags of theirs: a cache is only taken by a Node with the same flags). Returns its size; 0 when it could not be made, said
 * aloud (the server starts without it, only slower).
 */
async function writeCodeCache(outDir: string): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'warden-code-cache-'));
  const target = join(outDir, 'warden.cjs.cache');
  const configFile = join(dataDir, 'warden.yaml');
  await writeFile(configFile, WARM_CONFIG);
  const child = spawn(process.execPath, [join(outDir, 'warden.js'), 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      WARDEN_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      WARDEN_CONFIG: configFile,
      WARDEN_WRITE_CODE_CACHE: target,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let log = '';
      const timer = setTimeout(() => reject(new Error('the server did not start within 30 s')), 30_000);
      child.stderr.on('data', (chunk: Buffer) => {
        log += chunk;
        const match = /"url":"(http:\/\/[^"]+)"/.exec(log);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1].replace('localhost', '127.0.0.1'));
        }
      });
      child.once('exit', () => reject(new Error(`the server exited: ${log.slice(-500)}`)));
    });
    for (const path of WARM_PATHS)
      for (const encoding of ['br', 'identity']) {
        const response = await fetch(`${url}${path}`, { headers: { 'accept-encoding': encoding } });
        await response.arrayBuffer();
        // A warm-up that missed its page would leave the forms out of the cache without a word.
        if (!response.ok) throw new Error(`${path} answered ${response.status}`);
      }
    child.kill('SIGTERM');
    if ((await exited) !== 0) throw new Error('the server did not stop cleanly');
    return (await stat(target)).size;
  } catch (error) {
    child.kill('SIGKILL');
    console.warn(
      `warning: no code cache written (${error instanceof Error ? error.message : String(error)}); the server starts without one`,
    );
    return 0;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The launcher reads the bundle into one string that V8 keeps for as long as the server runs (lazy functions compile
 * from it). One character above U+00FF (esbuild leaves regular expressions and comments as written) makes V8 store
 * all of it two bytes a character: 3 MiB more heap for nothing. Such a character is escaped in the source instead.
 */
async function requireLatin1(file: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const wide = /[^\u0000-\u00ff]/.exec(text);
  if (!wide) return;
  const around = text.slice(Math.max(0, wide.index - 60), wide.index + 20).replaceAll('\n', ' ');
  throw new Error(
    `${file} holds U+${wide[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')} (…${around}…): escape it in the source, or the server's heap doubles the bundle`,
  );
}
