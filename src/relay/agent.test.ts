import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { dialects } from '../../test/store-dialects.js';
import { listStoredChecks } from '../../test/stored-checks.js';
import { scaled } from '../../test/time-scale.js';
import { newId } from '../domain/ids.js';
import { createLogger } from '../logger.js';
import { defineProbe } from '../probes/probe.js';
import { tcpConfig } from '../probes/tcp.js';
import type { Store } from '../store/index.js';
import {
  type AgentStats,
  CONFIG_CACHE_FILE,
  type RelayAgent,
  type RelayAgentOptions,
  startRelayAgent,
} from './agent.js';
import type { RelayResult } from './protocol.js';
import { QUEUE_FILE } from './queue.js';

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
  targets: ['host', 'port'],
  probe: async () => ({ ok: true, latencyMs: 1, data: { players: 7 } }),
});

/**
 * How long a wait for the agent (which probes every second and sends every 100 ms) may take before the test fails:
 * longer on a slow machine (test/time-scale.ts), where a round of probes and its delivery take longer too.
 */
const WAIT = { timeout: scaled(8000), interval: 20 };

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the relay agent against an in-process server on ${dialect.name}`, () => {
    let h: Harness;
    let store: Store;
    let dataDir: string;
    let up: boolean;
    /** Every result the agent sent, by id, as sent. */
    let sent: Map<string, RelayResult>;
    let dropAnswer: boolean;
    let logs: string[];

    beforeEach(async () => {
      h = await startHarness(dialect, CONFIG, Date.now());
      store = h.opened.store;
      const relay = await store.relays.findByKey(h.organizationId, 'lab');
      // One-second intervals (below the config file's minimum) so the test sees many results in little time.
      for (let i = 0; i < MONITORS; i++)
        await store.monitors.insert(
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
      // An agent a failed test left running would post into the next test's server.
      for (const agent of running.splice(0)) await agent.stop().catch(() => {});
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

    const running: RelayAgent[] = [];
    const start = async (overrides: Partial<RelayAgentOptions> = {}) => {
      const agent = await startRelayAgent({
        url: 'http://warden.test',
        token: TOKEN,
        dataDir,
        logger: createLogger(
          'debug',
          new Writable({ write: (chunk, _e, done) => done(void logs.push(String(chunk))) }),
        ),
        fetch: fetchThroughApp,
        probeFor: () => instantProbe,
        submitEveryMs: 100,
        configEveryMs: 200,
        backoff: { baseMs: 50, maxMs: 200 },
        ...overrides,
      });
      running.push(agent);
      return agent;
    };

    const stored = () => listStoredChecks(store);
    /** Waits (polling, up to WAIT.timeout) until the store holds at least this many checks. */
    const storedAtLeast = (n: number) =>
      vi.waitFor(async () => expect((await stored()).length).toBeGreaterThanOrEqual(n), WAIT);
    const until = (what: () => void) => vi.waitFor(what, WAIT);
    const expectExactlyOnce = async (stats: AgentStats[]) => {
      const rows = await stored();
      const produced = stats.reduce((sum, s) => sum + s.produced, 0);
      expect(rows).toHaveLength(produced);
      expect(rows.every((r) => r.source === 'relay')).toBe(true);
      // Each result once, under its id, with the time it was checked on the relay.
      const keys = await store.checks.storedResultKeys(
        [...sent.values()].map((r) => ({ monitorId: r.monitorId, resultId: r.id as string })),
      );
      expect(keys.size).toBe(produced);
      const sentTimes = [...keys].map((key) => {
        const r = sent.get(key.split('\u0000')[1] as string);
        return `${r?.monitorId}@${r?.checkedAt}`;
      });
      expect(rows.map((r) => `${r.monitorId}@${r.checkedAt}`).sort()).toEqual(sentTimes.sort());
    };

    it('delivers results, keeps them on disk while the server is away, and replays each exactly once', async () => {
      const agent = await start();
      await storedAtLeast(MONITORS);
      up = false;
      const downAt = Date.now();
      // Two rounds checked while it is away (the queue may also hold a round checked just before).
      const queued = () => readFileSync(join(dataDir, QUEUE_FILE), 'utf8').trim().split('\n').filter(Boolean);
      await until(() =>
        expect(
          queued().filter((line) => (JSON.parse(line) as { checkedAt: number }).checkedAt > downAt).length,
        ).toBeGreaterThanOrEqual(2 * MONITORS),
      );
      // What the agent counts as pending is what its file holds (both read again while it keeps queueing).
      await until(() => expect(queued().length).toBe(agent.stats().pending));
      up = true;
      await until(() => expect(agent.stats().pending).toBe(0));
      const stats = await agent.stop();
      expect(stats).toMatchObject({ pending: 0, dropped: 0, rejected: 0, duplicates: 0 });
      expect(stats.delivered).toBe(stats.produced);
      await expectExactlyOnce([stats]);
      // Results checked during the outage arrived late with their original time.
      expect((await stored()).filter((r) => r.checkedAt > downAt).length).toBeGreaterThanOrEqual(2 * MONITORS);
      const text = logs.join('');
      expect(text).toContain('server unreachable; keeping results on disk');
      expect(text).toContain('server reachable again');
      expect(text).not.toContain(TOKEN);
    });

    it('checks a monitor its next config adds at once, not at its spread first run', async () => {
      const agent = await start();
      await storedAtLeast(MONITORS);
      const relay = await store.relays.findByKey(h.organizationId, 'lab');
      const id = newId('mon');
      // An hourly monitor: spread, its first run could be up to an hour away.
      await store.monitors.insert(
        {
          id,
          organizationId: h.organizationId,
          key: 'hourly',
          name: 'Hourly',
          type: 'tcp',
          config: { host: '10.0.0.2', port: 80 },
          intervalSec: 3600,
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
      await until(async () => expect((await stored()).some((r) => r.monitorId === id)).toBe(true));
      await agent.stop();
    });

    it('resends a batch whose answer was lost, and the server stores it once', async () => {
      const agent = await start();
      await storedAtLeast(1);
      dropAnswer = true;
      await until(() =>
        expect({ dropAnswer, pending: agent.stats().pending, duplicated: agent.stats().duplicates > 0 }).toEqual({
          dropAnswer: false,
          pending: 0,
          duplicated: true,
        }),
      );
      const stats = await agent.stop();
      expect(stats.duplicates).toBeGreaterThan(0);
      await expectExactlyOnce([stats]);
    });

    it('leaves what it cannot deliver on disk at shutdown; the next start keeps probing from the cached config and delivers it', async () => {
      const first = await start({ finalFlushMs: 200 });
      await storedAtLeast(1);
      up = false;
      await until(() => expect(first.stats().pending).toBeGreaterThanOrEqual(MONITORS));
      const left = await first.stop();
      expect(left.pending).toBeGreaterThan(0);
      expect(JSON.parse(readFileSync(join(dataDir, CONFIG_CACHE_FILE), 'utf8')).config.monitors).toHaveLength(MONITORS);

      const second = await start();
      expect(second.stats().pending).toBe(left.pending);
      await until(() => expect(second.stats().produced).toBeGreaterThanOrEqual(MONITORS));
      up = true;
      await until(() => expect(second.stats().pending).toBe(0));
      const stats = await second.stop();
      await expectExactlyOnce([left, stats]);
    });

    it('drops results the server rejects instead of retrying them', async () => {
      const stray: RelayResult = {
        id: 'stray-1',
        monitorId: 'mon_notassignedtothisrelay',
        ok: true,
        checkedAt: Date.now(),
      };
      writeFileSync(join(dataDir, QUEUE_FILE), `${JSON.stringify(stray)}\n`);
      const agent = await start();
      await until(() => expect(agent.stats().rejected).toBe(1));
      const stats = await agent.stop();
      expect(stats.pending).toBe(0);
      expect(logs.join('')).toContain('the server rejected a result; it is dropped');
    });

    it('says clearly when the server refuses its token, without logging the token', async () => {
      const agent = await start({ token: 'wdr_notTheRightToken0123456789' });
      await until(() => expect(logs.join('')).toContain('the server refused the relay token'));
      const stats = await agent.stop();
      expect(stats.delivered).toBe(0);
      expect(logs.join('')).not.toContain('wdr_notTheRightToken0123456789');
    });
  });
}
