#!/usr/bin/env node
// The production `warden` command (dist/bundle/warden.js): runs the CommonJS bundle beside it (warden.cjs) from V8's
// code cache (warden.cjs.cache, written by `npm run build`), so a start compiles almost nothing: a third less start-up.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { constants, Script } from 'node:vm';
import { holdYoungGeneration, V8_SEMI_SPACE_GROWTH_FACTOR } from '../runtime/heap.js';
import { CODE_CACHE_STATE, type CodeCacheState, LAUNCHER_IMPORT } from '../runtime/launcher.js';

/**
 * V8 keys a code cache on its flags: the runtime sets `--heap-growing-percent` and `--semi-space-growth-factor` after
 * start (runtime/heap.ts), so the cache is written with them back at their defaults, the values V8 compares a new
 * start's flags to.
 */
const V8_DEFAULT_FLAGS = ['--heap-growing-percent=0', `--semi-space-growth-factor=${V8_SEMI_SPACE_GROWTH_FACTOR}`];

const here = dirname(fileURLToPath(import.meta.url));
const file = join(here, 'warden.cjs');
const cacheFile = join(here, 'warden.cjs.cache');

launch();

function launch(): void {
  // A shebang is not JavaScript inside the function wrapper below.
  const source = readFileSync(file, 'utf8').replace(/^#!.*/, '');
  const cachedData = readCache();
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    // The bundle's import() of packages left outside it (satori, gamedig, pg…) goes through Node's own ESM loader.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const state: CodeCacheState = !cachedData ? 'absent' : script.cachedDataRejected ? 'rejected' : 'accepted';
  // The server's young generation is capped (runtime/heap.ts): held from here, so loading the bundle cannot grow it.
  if (serving(process.argv.slice(2))) holdYoungGeneration();
  const slots = globalThis as Record<symbol, unknown>;
  slots[CODE_CACHE_STATE] = state;
  // Node 20 loses the script's import() handler for code taken from the cache: the bundle imports through this instead.
  slots[LAUNCHER_IMPORT] = (specifier: string) => import(specifier);
  // `npm run build` runs the server once with this set: on exit, V8's compiled code (everything the start and the first
  // requests ran) goes beside the bundle for every later start.
  const writeTo = process.env.WARDEN_WRITE_CODE_CACHE;
  if (writeTo) process.once('exit', () => writeCache(script, writeTo));
  const module = { exports: {} as unknown, id: file, filename: file, loaded: false };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  run(module.exports, createRequire(file), module, file, here);
}

/** Whether the command line runs the server: `serve`, or no command (options only), as src/cli/index.ts reads it. */
function serving(args: string[]): boolean {
  const first = args[0];
  if (first === undefined || first === 'serve') return true;
  return first.startsWith('-') && !['--help', '-h', '--version', '-V'].includes(first);
}

/**
 * The cache, or undefined when there is none (a build that skipped it, or a source checkout run with tsx) or when
 * WARDEN_CODE_CACHE=0 says not to use it (`npm run bench tricks` measures what it saves).
 */
function readCache(): Buffer | undefined {
  if (process.env.WARDEN_CODE_CACHE === '0') return undefined;
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

function writeCache(script: Script, to: string): void {
  for (const flag of V8_DEFAULT_FLAGS) setFlagsFromString(flag);
  const temporary = `${to}.${process.pid}.tmp`;
  writeFileSync(temporary, script.createCachedData());
  renameSync(temporary, to);
}
