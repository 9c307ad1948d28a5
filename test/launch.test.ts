// The production launcher (dist/bundle/warden.js, src/cli/launch.ts): the bundle runs from the code cache `npm run build`
// wrote, imports the packages left outside it (satori and resvg for og.png) through the launcher, and still runs when
// V8 refuses the cache (other V8 flags).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from './cli-process.js';

const started: { server: ServerProcess; dir: string }[] = [];

afterEach(async () => {
  for (const { server, dir } of started.splice(0)) {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function serve(nodeOptions: string): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-launch-'));
  const server = await startServer([], { WARDEN_DATA_DIR: dir, NODE_OPTIONS: nodeOptions });
  started.push({ server, dir });
  return server;
}

async function expectServes(server: ServerProcess): Promise<void> {
  const status = await fetch(`${server.url}/api/v1/status/demo`);
  expect(status.status).toBe(200);
  expect(((await status.json()) as { components: unknown[] }).components.length).toBeGreaterThan(0);
  // satori and @resvg/resvg-js are outside the bundle: imported on first use, from code that came out of the cache.
  const og = await fetch(`${server.url}/s/demo/og.png`);
  expect(og.status).toBe(200);
  expect(og.headers.get('content-type')).toBe('image/png');
  expect(
    Buffer.from(await og.arrayBuffer())
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');
}

describe('the production launcher', () => {
  it('starts from the build’s code cache and imports outside packages from cached code', async () => {
    const server = await serve('');
    expect(server.log()).toContain('"codeCache":"accepted"');
    await expectServes(server);
  });

  it('runs without the cache when V8 refuses it (a V8 flag the build did not have)', async () => {
    const server = await serve('--stack-trace-limit=25');
    expect(server.log()).toContain('"codeCache":"rejected"');
    await expectServes(server);
  });
});
