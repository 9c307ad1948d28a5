// `npm run build` step: the `warden` command as one ES module (dist/bundle/warden.js) plus the chunks it imports lazily,
// so a production start reads a few files instead of ~900 (half the cold start). `tsx src/cli/index.ts` stays the dev path.
import { readFile, rm } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const OUT_DIR = 'dist/bundle';

/**
 * Left to node_modules at run time: native addons, packages that locate files or workers beside their own code, and
 * large ones only some deployments load (each still loaded on first use, by a dynamic import).
 */
const EXTERNAL = [
  'better-sqlite3',
  'pg',
  'pg-native',
  '@resvg/resvg-js',
  'satori',
  'pino',
  'pino-pretty',
  'gamedig',
  // Its font-width tables (1 MB) are quicker to load as the JSON they ship as than parsed as JavaScript.
  'badge-maker',
  'ioredis',
  'openapi-explorer',
  '@fontsource/inter',
  'nodemailer',
  'openid-client',
  'bufferutil',
  'utf-8-validate',
];

/**
 * Code that finds files relative to its own module (docs/, dist/web, package.json) keeps finding them: each source
 * file's `import.meta.url` becomes the URL its tsc output (dist/<path>.js) would have, computed from the chunk's own.
 */
const compiledLocation: Plugin = {
  name: 'compiled-location',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const compiled = relative(`${root}${OUT_DIR}`, `${root}dist/${relative(`${root}src`, args.path).replace(/\.ts$/, '.js')}`).replaceAll('\\', '/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(compiled)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

// The chunks' names change with their content: last build's must not linger beside this one's.
await rm(`${root}${OUT_DIR}`, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { warden: 'src/cli/index.ts' },
  outdir: OUT_DIR,
  entryNames: '[name]',
  // Beside the entry, so that the rewritten import.meta.url above holds in every chunk.
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  external: EXTERNAL,
  // Bundled CommonJS packages (yaml, commander, ws…) call require() for Node's built-ins.
  banner: { js: "import { createRequire as __wardenRequire } from 'node:module'; const require = __wardenRequire(import.meta.url);" },
  plugins: [compiledLocation],
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
const entryBytes = outputs.find(([file]) => file.endsWith('/warden.js'))?.[1].bytes ?? 0;
console.log(`bundled ${OUT_DIR}/warden.js (${Math.round(entryBytes / 1024)} KiB) and ${outputs.length - 1} lazy chunks`);
