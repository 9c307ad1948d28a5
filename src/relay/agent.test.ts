import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { dialects } from '../../test/store-dialects.js';
import { newId } from '../domain/ids.js';
import { createLogger } from '../logger.js';
import { defineProbe } from '../probes/probe.js';
import { tcpConfig } from '../probes/tcp.js';
import type { Db } from '../store/connect.js';
import { insertMonitor } from '../store/monitors.js';
import { findRelayByKey } from '../store/relays.js';
import { type AgentStats, CONFIG_CACHE_FILE, type RelayAgentOptions, startRelayAgent } from './agent.js';
import { QUEUE_FILE } from './queue.js';
import type { RelayResult } from './wire.js';

const TOKEN = 'wdr_agentTestRelayToken0123456';
const CONFIG = `
organization: { key: acme, name: Acme }
relays: [{ key: lab, name: Lab, token: ${TOKEN} }]
`;
const MONITORS = 4;

/** Answers at once, with the player count the data carries on a game server. */
const instantProbe = defineProbe({
  id: 'tcp',
  label: 'instant',
  runsOn: ['relay'],
  config: tcpConfig,
  secrets: [],
  probe: async () => ({ ok: true, latencyMs: 1, data: { players: 7 } }),
});

const sqlite = dialects[0] as (typeof dialects)[number];

describe('the relay agent against an in-process server', () => {
  let h: Harness;
  let db: Db;
  let dataDir: string;
  let up: boolean;
  /** Every result the agent sent, by id, as sent. */
  let sent: Map<string, RelayResult>;
  let dropAnswer: boolean;
  let logs: string[];

  beforeEach(async () => {
    h = await startHarness(sqlite, CONFIG, Date.now());
    db = h.opened.store.db;
    const relay = await findRelayByKey(db, h.organizationId, 'lab');
    // One-second intervals (below the config file's minimum) so the test sees many results in little time.
    for (let i = 0; i < MONITORS; i++)
      await insertMonitor(
        db,
        {
          id: newId('mon'),
          organizationId: h.organizationId,
          key: `m${i}`,
          name: `M${i}`,
          type: 'tcp',
          config: { host: '10.0.0.1', port: 1000 + i },
          intervalSec: 1,
          timeoutMs: 500,
          runOn: 'relay',
          relayId: relay?.id ?? null,
          enabled: true,
          retries: 0,
          degradedLatencyMs: null,
          managedBy: 'api',
          pushToken: null,
        },
        Date.now(),
      );
    dataDir = mkdtempSync(join(tmpdir(), 'warden-agent-'));
    up = true;
    dropAnswer = false;
    sent = new Map();
    logs = [];
  });
  afterEach(async () => {
    await h.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const fetchThroughApp: typeof fetch = async (input, init) => {
    if (!up) throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    // The server's clock follows real time here: the agent stamps results with Date.now().
    h.clock.set(Date.now());
    if (init?.method === 'POST' && typeof init.body === 'string')
      for (const r of (JSON.parse(init.body) as { results: RelayResult[] }).results) sent.set(r.id as string, r);
    const res = await h.app.request(String(input), init as RequestInit);
    if (dropAnswer && init?.method === 'POST') {
      dropAnswer = false;
      throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    }
    return res;
  };

  const start = (overrides: Partial<RelayAgentOptions> = {}) =>
    startRelayAgent({
      url: 'http://warden.test',
      token: TOKEN,
      dataDir,
      logger: createLogger('debug', new Writable({ write: (chunk, _e, done) => done(void logs.push(String(chunk))) })),
      fetch: fetchThroughApp,
      probeFor: () => instantProbe,
      submitEveryMs: 100,
      configEveryMs: 200,
      backoff: { baseMs: 50, maxMs: 200 },
      ...overrides,
    });

  const stored = async () =>
    db.selectFrom('checks').select(['result_id', 'checked_at', 'data', 'source']).execute();
  const until = async (what: () => boolean | Promise<boolean>, timeoutMs = 8000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await what())) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const expectExactlyOnce = async (stats: AgentStats[]) => {
    const rows = await stored();
    const produced = stats.reduce((sum, s) => sum + s.produced, 0);
    expect(rows).toHaveLength(produced);
    expect(new Set(rows.map((r) => r.result_id)).size).toBe(produced);
    for (const row of rows) {
      expect(row.source).toBe('relay');
      expect(row.checked_at).toBe(sent.get(row.result_id as string)?.checkedAt);
    }
  };

  it('delivers results, keeps them on disk while the server is away, and replays each exactly once', async () => {
    const agent = await start();
    await until(async () => (await stored()).length >= MONITORS);
    up = false;
    const downAt = Date.now();
    await until(() => agent.stats().pending >= 2 * MONITORS);
    expect(readFileSync(join(dataDir, QUEUE_FILE), 'utf8').trim().split('\n').length).toBe(agent.stats().pending);
    up = true;
    await until(() => agent.stats().pending === 0);
    const stats = await agent.stop();
    expect(stats).toMatchObject({ pending: 0, dropped: 0, rejected: 0, duplicates: 0 });
    expect(stats.delivered).toBe(stats.produced);
    await expectExactlyOnce([stats]);
    // Results checked during the outage arrived late with their original time.
    expect((await stored()).filter((r) => r.checked_at > downAt).length).toBeGreaterThanOrEqual(2 * MONITORS);
    const text = logs.join('');
    expect(text).toContain('server unreachable; keeping results on disk');
    expect(text).toContain('server reachable again');
    expect(text).not.toContain(TOKEN);
  });

  it('resends a batch whose answer was lost, and the server stores it once', async () => {
    const agent = await start();
    await until(async () => (await stored()).length >= 1);
    dropAnswer = true;
    await until(() => !dropAnswer && agent.stats().pending === 0 && agent.stats().duplicates > 0);
    const stats = await agent.stop();
    expect(stats.duplicates).toBeGreaterThan(0);
    await expectExactlyOnce([stats]);
  });

  it('leaves what it cannot deliver on disk at shutdown; the next start keeps probing from the cached config and delivers it', async () => {
    const first = await start({ finalFlushMs: 200 });
    await until(async () => (await stored()).length >= 1);
    up = false;
    await until(() => first.stats().pending >= MONITORS);
    const left = await first.stop();
    expect(left.pending).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(join(dataDir, CONFIG_CACHE_FILE), 'utf8')).config.monitors).toHaveLength(MONITORS);

    const second = await start();
    expect(second.stats().pending).toBe(left.pending);
    await until(() => second.stats().produced >= MONITORS);
    up = true;
    await until(() => second.stats().pending === 0);
    const stats = await second.stop();
    await expectExactlyOnce([left, stats]);
  });

  it('drops results the server rejects instead of retrying them', async () => {
    const stray: RelayResult = { id: 'stray-1', monitorId: 'mon_notassignedtothisrelay', ok: true, checkedAt: Date.now() };
    writeFileSync(join(dataDir, QUEUE_FILE), `${JSON.stringify(stray)}\n`);
    const agent = await start();
    await until(() => agent.stats().rejected === 1);
    const stats = await agent.stop();
    expect(stats.pending).toBe(0);
    expect(logs.join('')).toContain('the server rejected a result; it is dropped');
  });

  it('says clearly when the server refuses its token, without logging the token', async () => {
    const agent = await start({ token: 'wdr_notTheRightToken0123456789' });
    await until(() => logs.join('').includes('the server refused the relay token'));
    const stats = await agent.stop();
    expect(stats.delivered).toBe(0);
    expect(logs.join('')).not.toContain('wdr_notTheRightToken0123456789');
  });
});
