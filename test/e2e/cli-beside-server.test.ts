// `warden` commands beside a running server (issue 34), in a checkout of its own made from this one's build: two
// `npx warden` at once (as the README used to write every command, and npm's first run of it installs the checkout,
// prepare script and all) leave dist/ as it was, and builds made live meanwhile (scripts/builds.ts, what `npm run
// build` ends with) neither stop the server serving its dashboard nor leave a moment without a dist/.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { cp } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkDist, liveBuild, publishBuild, startBuild } from '../../scripts/builds.js';
import { type ServerProcess, startServer } from '../cli-process.js';
import { scaled } from '../time-scale.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

let checkout: string;
let server: ServerProcess;
/** The dashboard's script files in the build the server started from, each fetched at most once by these tests. */
let assets: string[];

beforeAll(async () => {
  checkout = mkdtempSync(join(tmpdir(), 'warden-checkout-'));
  for (const file of ['package.json', 'package-lock.json', 'warden'])
    copyFileSync(join(REPO, file), join(checkout, file));
  // A copy, so that a prepare script that did build would build here (and fail: no sources), not in this checkout.
  cpSync(join(REPO, 'scripts'), join(checkout, 'scripts'), { recursive: true });
  for (const dir of ['node_modules', 'docs']) symlinkSync(join(REPO, dir), join(checkout, dir));
  publishBuild(checkout, copyOfBuild());
  assets = readdirSync(join(checkout, 'dist', 'web', 'assets')).filter((name) => name.endsWith('.js'));
  server = await startServer(
    [],
    { WARDEN_DATA_DIR: join(checkout, 'data') },
    join(checkout, 'dist', 'bundle', 'warden.js'),
  );
}, scaled(60_000));

afterAll(async () => {
  await server?.stop();
  rmSync(checkout, { recursive: true, force: true });
});

describe('CLI commands beside a running server', () => {
  it('two npx warden at once rebuild nothing and touch nothing in dist/, and the server keeps serving', {
    timeout: scaled(120_000),
  }, async () => {
    expect((await fetchOwn(`${server.url}/app/`)).status).toBe(200);
    await expectAsset(nextAsset());
    const before = snapshot();

    const [created, listed] = await Promise.all([
      npx(['keys', 'create', '--name', 'beside', '--scope', 'read']),
      npx(['monitors', 'list']),
    ]);
    expect(created.stdout).toMatch(/^wdn_[\w-]+\n$/);
    expect(listed.stdout).toContain('demo-http');

    expect(snapshot()).toEqual(before);
    expect((await fetchOwn(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetchOwn(`${server.url}/api/v1/status/demo`)).status).toBe(200);
    await expectAsset(nextAsset());
  });

  it('a build made live keeps the server on its own build, and dist/ is never missing while builds swap', {
    timeout: scaled(120_000),
  }, async () => {
    const started = liveBuild(checkout) as string;
    // A build whose dashboard has no files at all: the server must not look there for the ones it has not read yet.
    const next = copyOfBuild();
    rmSync(join(next, 'web', 'assets'), { recursive: true });
    const published = publishBuild(checkout, next);
    expect(liveBuild(checkout)).toBe(published);
    expect(existsSync(join(checkout, started))).toBe(true);
    await expectAsset(nextAsset());

    // Commands start while dist/ flips between the two builds as fast as this process can rename.
    let flips = 0;
    let flipping = true;
    const flipper = (async () => {
      while (flipping) {
        linkDist(checkout, flips++ % 2 === 0 ? started : published);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const runs = await Promise.all(Array.from({ length: 6 }, () => shim(['--version'])));
    flipping = false;
    await flipper;
    expect(flips).toBeGreaterThan(runs.length);
    for (const run of runs) expect(run.stdout.trim()).toBe(VERSION);

    // One more build: the live one and the one before it stay, the oldest, the server's own, goes.
    linkDist(checkout, published);
    const third = publishBuild(checkout, copyOfBuild());
    expect(builds()).toEqual([published, third].sort());
    expect((await fetchOwn(`${server.url}/healthz`)).status).toBe(200);
    expect((await shim(['monitors', 'list'])).stdout).toContain('demo-http');
    // Its assets are then read from the live build, where a file of the same hashed name holds the same bytes…
    await expectAsset(nextAsset());
    // …and one the live build lacks is not found, not a server error.
    linkDist(checkout, published);
    expect((await fetchOwn(`${server.url}/app/assets/${nextAsset()}`)).status).toBe(404);
  });

  it('two ./warden commands while a build is written leave dist/ as it was, and a new server starts from it', {
    timeout: scaled(60_000),
  }, async () => {
    const config = join(checkout, 'warden.yaml');
    writeFileSync(
      config,
      'organization: { name: Beside }\nmonitors:\n  - { key: port, name: Port, type: tcp, config: { host: example.com, port: 80 } }\n',
    );
    // `npm run build` meanwhile, as scripts/build.ts does it: its folder filled beside dist/ while the commands run.
    // Half of it is there before they start, and the rest is written while they run.
    const folder = startBuild(checkout);
    cpSync(join(REPO, 'dist', 'bundle'), join(folder, 'bundle'), { recursive: true, filter: noMaps });
    const before = snapshot();
    const building = cp(realpathSync(join(REPO, 'dist')), folder, { recursive: true, filter: noMaps });
    let runs: Run[];
    try {
      runs = await Promise.all([shim(['monitors', 'list']), shim(['config', 'check', config])]);
    } finally {
      await building;
    }
    const [listed, checked] = runs as [Run, Run];
    expect(listed.stdout).toContain('demo-http');
    expect(checked.stdout + checked.stderr).toContain('is valid: 0 relays, 1 monitor');
    expect(snapshot()).toEqual(before);
    for (const path of ['/healthz', '/api/v1/status/demo', '/s/demo'])
      expect((await fetchOwn(`${server.url}${path}`)).status, path).toBe(200);

    const published = publishBuild(checkout, folder);
    expect(liveBuild(checkout)).toBe(published);
    expect((await fetchOwn(`${server.url}/healthz`)).status).toBe(200);
    const fresh = await startServer(
      [],
      { WARDEN_DATA_DIR: join(checkout, 'fresh-data') },
      join(checkout, 'dist', 'bundle', 'warden.js'),
    );
    try {
      for (const path of ['/healthz', '/api/v1/status/demo', '/s/demo', '/app/'])
        expect((await fetchOwn(`${fresh.url}${path}`)).status, path).toBe(200);
    } finally {
      await fresh.stop();
    }
  });
});

/** This checkout's live build, copied into a new build folder of the test checkout: a build in a second. */
function copyOfBuild(): string {
  const folder = startBuild(checkout);
  cpSync(realpathSync(join(REPO, 'dist')), folder, { recursive: true, filter: noMaps });
  return folder;
}

/** Source maps: half of a build's bytes, and nothing these tests read. */
function noMaps(source: string): boolean {
  return !source.endsWith('.map');
}

function builds(): string[] {
  return readdirSync(checkout)
    .filter((name) => name.startsWith('.dist-'))
    .sort();
}

function nextAsset(): string {
  const name = assets.shift();
  if (!name) throw new Error('the dashboard build has too few script files for these tests');
  return name;
}

async function expectAsset(name: string): Promise<void> {
  const response = await fetchOwn(`${server.url}/app/assets/${name}`);
  expect(response.status, name).toBe(200);
  expect(response.length).toBeGreaterThan(0);
}

/**
 * A GET on a connection of its own. This file copies builds synchronously, which can hold its event loop past the
 * server's 5 s keep-alive: a pooled connection could then be reused just as the server closes it.
 */
function fetchOwn(url: string): Promise<{ status: number; length: number }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers: { 'accept-encoding': 'identity' } }, (response) => {
      let length = 0;
      response.on('data', (chunk: Buffer) => {
        length += chunk.length;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, length }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** Every file of the live build with its inode, size and modification time, the link, and the build folders beside it. */
function snapshot(): string[] {
  const lines = [`dist -> ${liveBuild(checkout)}`, ...builds()];
  const walk = (dir: string, path: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const stat = lstatSync(join(dir, name));
      lines.push(`${path}${name} ${stat.ino} ${stat.size} ${stat.mtimeMs}`);
      if (stat.isDirectory()) walk(join(dir, name), `${path}${name}/`);
    }
  };
  walk(realpathSync(join(checkout, 'dist')), '');
  return lines;
}

interface Run {
  stdout: string;
  stderr: string;
}

/**
 * `npx warden …` in the test checkout, with an npm cache of its own (so npm's first run, which installs the checkout
 * and runs its prepare script, happens here) and nothing of the npm running these tests (npm_* variables).
 */
function npx(args: string[]): Promise<Run> {
  const npmEnv = {
    npm_config_cache: join(checkout, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  return command('npx', ['warden', ...args], npmEnv);
}

/** `./warden …`, the README's way. */
function shim(args: string[]): Promise<Run> {
  return command(join(checkout, 'warden'), args, {});
}

function command(program: string, args: string[], extra: Record<string, string>): Promise<Run> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.toLowerCase().startsWith('npm_')) env[key] = value;
  Object.assign(env, { WARDEN_DATA_DIR: join(checkout, 'data'), LOG_LEVEL: 'warn' }, extra);
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${program} ${args.join(' ')} exited with ${code}:\n${stderr}`));
    });
  });
}
