// The pterodactyl monitor against a fake panel's client API.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PterodactylFakeState, pterodactylServer, startPterodactylFake } from '../../test/fakes/game-api-fakes.js';
import { activeResources, leakedResources } from '../../test/fakes/handles.js';
import type { FakeServer } from '../../test/fakes/http-fakes.js';
import { probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { pterodactyl } from './pterodactyl.js';

const API_KEY = 'ptlc_Fak3ClientKeyThatMustNeverLeak0123456789';
let panel: FakeServer & { state: PterodactylFakeState };

beforeAll(async () => {
  panel = await startPterodactylFake({ apiKey: API_KEY, servers: {} });
});
afterAll(() => panel.close());
beforeEach(() => {
  panel.state.servers = { d3aac109: pterodactylServer('running'), e4bbd210: pterodactylServer('offline') };
  panel.state.override = undefined;
  panel.state.redirectTo = undefined;
});

const config = (extra: Record<string, unknown> = {}) => ({
  panelUrl: panel.url,
  serverId: 'd3aac109',
  apiKey: API_KEY,
  ...extra,
});

const check = (extra: Record<string, unknown> = {}, timeoutMs = 1500) =>
  probeDirectly(pterodactyl, config(extra), timeoutMs);
const run = (extra: Record<string, unknown> = {}, timeoutMs = 1500) =>
  runThrough(pterodactyl, config(extra), timeoutMs);

describe('pterodactyl probe', () => {
  it('is up for a running server, with its resource usage', async () => {
    const result = await check();
    expect(result).toMatchObject({
      ok: true,
      message: 'running, CPU 37.1%, memory 1 GiB',
      data: {
        state: 'running',
        cpuPercent: 37.1,
        memoryBytes: 1_073_741_824,
        diskBytes: 5_368_709_120,
        uptimeMs: 3_600_000,
      },
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('sends the key as a Bearer token and asks for JSON', async () => {
    await check({ panelUrl: `${panel.url}/` });
    const seen = panel.requests.at(-1);
    expect(seen?.path).toBe('/api/client/servers/d3aac109/resources');
    expect(seen?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(seen?.headers.accept).toBe('application/json');
  });

  it('is down with the state when the server is not running', async () => {
    expect(await check({ serverId: 'e4bbd210' })).toMatchObject({
      ok: false,
      error: 'server is offline',
      data: { state: 'offline' },
    });
    panel.state.servers.d3aac109 = pterodactylServer('starting');
    expect(await check()).toMatchObject({ ok: false, error: 'server is starting' });
    panel.state.servers.d3aac109 = { ...pterodactylServer('running'), is_suspended: true };
    expect(await check()).toMatchObject({ ok: false, error: 'server is suspended' });
  });

  it('says the panel rejected a wrong key', async () => {
    expect(await check({ apiKey: 'ptlc_wrong' })).toEqual({ ok: false, error: 'the panel rejected the API key' });
  });

  it('says the server is not on the panel', async () => {
    expect(await check({ serverId: 'ffffffff' })).toEqual({ ok: false, error: 'server not found on the panel' });
  });

  it('does not follow a redirect, and names where it points', async () => {
    panel.state.redirectTo = 'https://panel.example.test/login';
    expect(await check()).toEqual({
      ok: false,
      error: 'the panel redirects to https://panel.example.test; set panelUrl to that address',
    });
  });

  it('fails plainly on an answer that is not the stats JSON', async () => {
    panel.state.override = { misbehave: 'not-json' };
    expect(await check()).toEqual({
      ok: false,
      error: "the panel's answer is not the client API's resource stats (is panelUrl right?)",
    });
    panel.state.override = {
      object: 'stats',
      attributes: { current_state: 'running', resources: { memory_bytes: 'lots' } },
    };
    expect(await check()).toMatchObject({ ok: false, error: expect.stringContaining('not the client API') });
  });

  it('cuts off an endless answer at the byte cap', async () => {
    panel.state.override = { misbehave: 'endless' };
    expect(await check()).toEqual({ ok: false, error: "the panel's answer is larger than 1 MiB" });
  });

  it('times out on a panel that hangs or trickles', async () => {
    panel.state.override = { misbehave: 'hang' };
    expect(await check({}, 300)).toEqual({ ok: false, error: 'timed out after 0.3 s' });
    panel.state.override = { misbehave: 'trickle' };
    expect(await run({}, 300)).toEqual({ ok: false, error: 'timed out after 0.3 s' });
  });

  it('says the connection was refused when nothing listens', async () => {
    const closed = await startPterodactylFake({ apiKey: API_KEY, servers: {} });
    await closed.close();
    expect(await check({ panelUrl: closed.url })).toEqual({ ok: false, error: 'connection refused' });
  });

  it('never puts the API key in a result', async () => {
    const results = [
      await check(),
      await check({ serverId: 'e4bbd210' }),
      await run(),
      await run({ serverId: 'ffffffff' }),
    ];
    panel.state.override = { misbehave: 'hang' };
    results.push(await run({}, 300));
    for (const result of results) expect(JSON.stringify(result)).not.toContain(API_KEY);
  });

  it('runs through runProbe', async () => {
    expect(await run()).toMatchObject({ ok: true, data: { state: 'running' } });
    expect(await run({ apiKey: '' })).toMatchObject({
      ok: false,
      error: 'invalid config: the client API key must not be empty',
    });
  });

  it('leaves no socket or timer open', async () => {
    const before = activeResources();
    await check();
    panel.state.override = { misbehave: 'endless' };
    await check();
    panel.state.override = { misbehave: 'hang' };
    await check({}, 300);
    expect(await leakedResources(before)).toEqual({});
  });
});
