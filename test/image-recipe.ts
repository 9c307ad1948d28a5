// Replays deploy/Dockerfile's final stage on the host, so the image's recipe cannot rot where CI has no Docker engine:
// its WORKDIR, ENV, COPY, RUN and VOLUME steps into a temporary folder standing for the image's filesystem (the
// production install runs for real, from the lockfile, against the registry), then its CMD from there on a free port
// with the volume as the data dir; /healthz, /readyz, the demo page, the dashboard and the API reference must answer,
// the HEALTHCHECK command must pass, and STOPSIGNAL must stop the server cleanly within the 10 s it promises.
//
//   npx tsx test/image-recipe.ts [--keep]      (after `npm run build`: the build stage's dist/ is taken from here)
//   npx tsx test/image-recipe.ts --stage build  replays that stage's steps alone (a full install and build, minutes)
//
// What the earlier stages make is taken from this checkout, which CI has just made the same way: their /app is the
// repository after `npm ci` (better-sqlite3's addon, built by its install script) and `npm run build` (dist/). A RUN
// step this file does not know how to replay fails the check: teach it the step rather than let it pass unseen.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Instruction, keyValues, readDockerfile, type Stage, shellWords } from './dockerfile.js';
import { durationMs, exec, freePort, waitFor200 } from './image-recipe-process.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const DOCKERFILE = join(REPO, 'deploy', 'Dockerfile');
/** The server promises to stop within 10 s of SIGTERM; allow for a slow CI machine on top. */
const STOP_BUDGET_MS = 12_000;
const START_BUDGET_MS = 60_000;
/** Host variables the replayed steps may see; nothing else of CI's environment (no DATABASE_URL, no REDIS_URL). */
const HOST_ENV = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'npm_config_cache', 'npm_config_registry', 'npm_config_loglevel'];

/** The image's filesystem: container paths under `root`, the current WORKDIR, the environment and what the stage declares. */
interface Image {
  root: string;
  workdir: string;
  env: Record<string, string>;
  volumes: string[];
  user?: string;
  cmd?: string[];
  healthcheck?: Instruction;
  stopSignal: NodeJS.Signals;
  stages: Stage[];
  /** What was not replayed and why, for the report. */
  notes: string[];
}

export async function checkImageRecipe(
  options: { keep?: boolean; stage?: string; log?: (line: string) => void } = {},
): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  const stages = readDockerfile(DOCKERFILE);
  const final = stages.at(-1) as Stage;
  const only = options.stage === undefined ? undefined : stages.find((s) => s.name === options.stage);
  if (options.stage !== undefined && !only)
    throw new Error(`deploy/Dockerfile has no stage ${options.stage} (${stages.map((s) => s.name).join(', ')})`);
  const root = mkdtempSync(join(tmpdir(), 'warden-image-'));
  const image: Image = { root, workdir: '/', env: {}, volumes: [], stopSignal: 'SIGTERM', stages, notes: [] };
  const timings: string[] = [];
  const timed = async <T>(label: string, work: () => Promise<T> | T): Promise<T> => {
    const started = performance.now();
    const result = await work();
    timings.push(`${label} ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  };
  log(
    `replaying ${only ? `stage ${only.name}` : 'the final stage'} of deploy/Dockerfile (FROM ${(only ?? final).image}) into ${root}`,
  );
  try {
    await timed('steps', async () => {
      for (const step of (only ?? final).instructions) await replay(image, step, log);
    });
    if (only) {
      for (const note of image.notes) log(`  not replayed: ${note}`);
      return log(`stage ${only.name} replayed (${timings.join(', ')})`);
    }
    if (!image.cmd) throw new Error('the final stage has no CMD in exec form');
    if (!image.user || image.user === 'root' || image.user === '0')
      throw new Error('the final stage must run as a non-root USER');
    await timed('serve', () => serveAndStop(image, log));
  } finally {
    if (options.keep) log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
  for (const note of image.notes) log(`  not replayed: ${note}`);
  log(`image recipe ok (${timings.join(', ')})`);
}

async function replay(image: Image, step: Instruction, log: (line: string) => void): Promise<void> {
  const where = `deploy/Dockerfile:${step.line} ${step.keyword}`;
  switch (step.keyword) {
    case 'WORKDIR':
      image.workdir = posix.resolve(image.workdir, step.text);
      mkdirSync(hostPath(image, image.workdir), { recursive: true });
      return;
    case 'ENV':
      Object.assign(image.env, keyValues(step.text));
      return;
    case 'COPY':
      return copy(image, step, where);
    case 'RUN':
      return run(image, step, where, log);
    case 'VOLUME':
      for (const volume of step.exec ?? shellWords(step.text)) {
        image.volumes.push(volume);
        mkdirSync(hostPath(image, volume), { recursive: true });
      }
      return;
    case 'USER':
      image.user = step.text.trim();
      image.notes.push(`USER ${image.user} (the steps and the server run as ${process.env.USER ?? 'this user'})`);
      return;
    case 'CMD':
      if (!step.exec)
        throw new Error(`${where}: use the exec form (["node", …]) so the server is PID 1 and gets the stop signal`);
      image.cmd = step.exec;
      return;
    case 'HEALTHCHECK':
      image.healthcheck = step;
      return;
    case 'STOPSIGNAL':
      image.stopSignal = step.text.trim() as NodeJS.Signals;
      return;
    case 'LABEL':
    case 'ARG':
    case 'EXPOSE':
      return;
    default:
      throw new Error(`${where}: test/image-recipe.ts cannot replay ${step.keyword} yet`);
  }
}

/** COPY from the build context (this repository) or `--from=<stage>`, whose /app is this checkout after CI's install and build. */
function copy(image: Image, step: Instruction, where: string): void {
  const words = step.exec ?? shellWords(step.text);
  if (words.length < 2) throw new Error(`${where}: COPY needs a source and a destination`);
  const sources = words.slice(0, -1);
  const destination = posix.resolve(image.workdir, words.at(-1) as string);
  const into = (words.at(-1) as string).endsWith('/') || sources.length > 1;
  for (const source of sources) {
    const from =
      step.flags.from === undefined ? join(REPO, source) : stageOutput(image, step.flags.from, source, where);
    if (!existsSync(from))
      throw new Error(
        `${where}: ${source} does not exist (${from})${step.flags.from === 'build' ? ': run `npm run build` first' : ''}`,
      );
    const target = hostPath(
      image,
      into && !statSync(from).isDirectory() ? posix.join(destination, basename(source)) : destination,
    );
    mkdirSync(statSync(from).isDirectory() ? target : dirname(target), { recursive: true });
    // Docker follows a symlink named as the source (BuildKit's COPY: FollowSymlinks), as the build stage's dist is.
    cpSync(realpathSync(from), target, { recursive: true });
  }
}

function stageOutput(image: Image, name: string, source: string, where: string): string {
  const stage = image.stages.find((s) => s.name === name);
  if (!stage) throw new Error(`${where}: --from=${name} names no stage`);
  const workdir = stage.instructions.filter((i) => i.keyword === 'WORKDIR').at(-1)?.text ?? '/';
  const relative = posix.relative(workdir, posix.resolve(workdir, source));
  if (relative.startsWith('..'))
    throw new Error(`${where}: ${source} is outside stage ${name}'s ${workdir}, which stands for this checkout`);
  return join(REPO, relative);
}

/** Each `&&`-joined command of a RUN step, replayed if it is one this check knows; anything else fails the check. */
async function run(image: Image, step: Instruction, where: string, log: (line: string) => void): Promise<void> {
  for (const command of step.text.split(/\s+&&\s+/)) {
    const words = shellWords(command);
    const [program, ...args] = words;
    if (
      program === 'npm' &&
      (args[0] === 'ci' || args[0] === 'rebuild' || (args[0] === 'run' && args[1] === 'build'))
    ) {
      log(`  ${command}`);
      await exec('npm', args, { cwd: hostPath(image, image.workdir), env: stepEnv(image) });
    } else if (program === 'mkdir') {
      for (const path of args.filter((a) => !a.startsWith('-')))
        mkdirSync(hostPath(image, posix.resolve(image.workdir, path)), { recursive: true });
    } else if (program === 'chown') {
      image.notes.push(`${where}: ${command} (everything here belongs to the user running the check)`);
    } else if (program === 'apt-get' || (program === 'rm' && args.some((a) => a.startsWith('/var/lib/apt')))) {
      image.notes.push(`${where}: ${command} (a system package: the host has its own)`);
    } else
      throw new Error(
        `${where}: test/image-recipe.ts does not know how to replay "${command}" on the host: teach it (run, map or skip with a reason)`,
      );
  }
}

async function serveAndStop(image: Image, log: (line: string) => void): Promise<void> {
  const port = await freePort();
  const dataDir = image.env.WARDEN_DATA_DIR;
  if (!dataDir || !image.volumes.includes(dataDir))
    throw new Error(`WARDEN_DATA_DIR (${dataDir}) must be a VOLUME, or the database dies with the container`);
  const env: Record<string, string> = { ...serverEnv(image), PORT: String(port), HOST: '127.0.0.1' };
  const [command, ...args] = image.cmd as string[];
  const cwd = hostPath(image, image.workdir);
  log(`  ${image.cmd?.join(' ')} (in ${image.workdir}, PORT=${port}, WARDEN_DATA_DIR=${env.WARDEN_DATA_DIR})`);
  const server = spawn(command as string, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    server.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor200(`${base}/healthz`, exited, START_BUDGET_MS);
    await waitFor200(`${base}/readyz`, exited, START_BUDGET_MS);
    const demo = await fetch(`${base}/api/v1/status/demo`);
    const snapshot = (await demo.json()) as { components?: unknown[] };
    if (demo.status !== 200 || !snapshot.components?.length)
      throw new Error(`/api/v1/status/demo answered ${demo.status} without components`);
    for (const [path, what] of [
      ['/s/demo', 'the demo status page'],
      ['/app/', 'the dashboard (dist/web)'],
      ['/docs', 'the API reference'],
      ['/docs/openapi-explorer.js', 'the API reference bundle (a production dependency)'],
      ['/docs/api.md', 'the reference docs (docs/)'],
      ['/s/demo/og.png', 'the Open Graph image (satori and resvg, imported through the launcher)'],
    ] as const) {
      const response = await fetch(base + path);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} (${what}) answered ${response.status}`);
    }
    // The build's code cache, taken by the image's Node: a start compiles almost nothing (docs/operations.md, Start-up).
    if (!output.includes('"codeCache":"accepted"'))
      throw new Error('the server started without the code cache: dist/bundle/warden.cjs.cache missing or refused');
    await healthcheck(image, cwd, env);
    if (!existsSync(join(hostPath(image, dataDir), 'warden.db')))
      throw new Error(`no warden.db in the volume ${dataDir}`);
    log(
      '  /healthz, /readyz, /api/v1/status/demo, /s/demo, /s/demo/og.png, /app/, /docs and the HEALTHCHECK answered; the code cache was taken',
    );
  } catch (error) {
    server.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output.slice(-4000)}`);
  }
  const stopping = performance.now();
  server.kill(image.stopSignal);
  const timeout = setTimeout(() => server.kill('SIGKILL'), STOP_BUDGET_MS);
  const { code, signal } = await exited;
  clearTimeout(timeout);
  const stopMs = Math.round(performance.now() - stopping);
  if (code !== 0)
    throw new Error(
      `after ${image.stopSignal} the server exited with ${signal ?? `code ${code}`} in ${stopMs} ms\n--- server output ---\n${output.slice(-4000)}`,
    );
  log(`  ${image.stopSignal}: exited with code 0 in ${stopMs} ms`);
}

/** The HEALTHCHECK's command, run as Docker would inside the container: exit code 0 within its --timeout. */
async function healthcheck(image: Image, cwd: string, env: Record<string, string>): Promise<void> {
  const step = image.healthcheck;
  if (!step || /^NONE\b/.test(step.text)) throw new Error('the final stage has no HEALTHCHECK');
  const argv = step.exec ?? ['sh', '-c', step.text.replace(/^CMD\s+/, '')];
  const timeoutMs = durationMs(step.flags.timeout ?? '30s');
  await exec(argv[0] as string, argv.slice(1), { cwd, env, timeoutMs }).catch((error: Error) => {
    throw new Error(`HEALTHCHECK ${argv.join(' ')} failed: ${error.message}`);
  });
}

/** A container path inside the temporary root; ENV values that are absolute paths (WARDEN_DATA_DIR=/data) likewise. */
function hostPath(image: Image, path: string): string {
  if (!isAbsolute(path)) throw new Error(`expected an absolute path, got ${path}`);
  return join(image.root, path);
}

/** A RUN step's environment: the image's, with the host's PATH and HOME (npm's cache and settings). */
function stepEnv(image: Image): Record<string, string> {
  return { ...imageEnv(image), ...hostEnv(HOST_ENV) };
}

/** The server's: the image's ENV and nothing of CI's but PATH (node itself), LANG and TMPDIR. */
function serverEnv(image: Image): Record<string, string> {
  return { ...hostEnv(['PATH', 'LANG', 'TMPDIR']), HOME: image.root, ...imageEnv(image) };
}

function imageEnv(image: Image): Record<string, string> {
  return Object.fromEntries(
    Object.entries(image.env).map(([key, value]) => [key, value.startsWith('/') ? hostPath(image, value) : value]),
  );
}

function hostEnv(names: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    names.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name] as string]])),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const stage = process.argv.indexOf('--stage');
  checkImageRecipe({
    keep: process.argv.includes('--keep'),
    stage: stage > 0 ? process.argv[stage + 1] : undefined,
  }).catch((error: Error) => {
    console.error(`image recipe check failed: ${error.message}`);
    process.exit(1);
  });
}
