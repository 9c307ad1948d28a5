// The players of `npm run bench loadgen`: relay agents, heartbeat senders and page readers at a fixed cadence, over
// keep-alive HTTP to Warden's processes in turn (a load balancer's round robin), each request's status and time counted.
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { Stats } from './loadgen-stats.js';

export { type Kind, Stats, type StatsCounts } from './loadgen-stats.js';

/** As the relay agent (docs/relay.md): results sent every 5 s, at most 500 a batch, 15 s per request, config every 60 s. */
export const RELAY_SUBMIT_MS = 5000;
const RELAY_BATCH = 500;
const CONFIG_POLL_MS = 60_000;
const REQUEST_TIMEOUT_MS = 15_000;
/** One result (and one heartbeat) in this many reports a failure, moving its monitor down and back up. */
const FAIL_EVERY = 200;
/** Heartbeats waiting for an answer at most: past it a due ping is counted as not sent (the server is far behind). */
const MAX_PUSHES_IN_FLIGHT = 4000;

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** One request; resolves with the status ('error' / 'timeout' without an answer), the body, and the milliseconds it took. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: string; body: string; ms: number; etag?: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: string, body = '', etag?: string) =>
      resolve({ status, body, ms: performance.now() - started, ...(etag ? { etag } : {}) });
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done(String(res.statusCode), body, res.headers.etag));
      res.on('error', () => done('error'));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    req.on('error', (error) => done(error.message === 'timeout' ? 'timeout' : 'error'));
    req.end(options.body);
  });
}

/** The processes in turn, as a round-robin load balancer hands requests out. */
export class Balancer {
  private next = 0;
  constructor(private readonly urls: string[]) {}
  url(): string {
    return this.urls[this.next++ % this.urls.length] as string;
  }
}

/** Everything the players started and have not finished: awaited at the end so no answer is left uncounted. */
const inFlight = new Set<Promise<unknown>>();
function track<T>(promise: Promise<T>): Promise<T> {
  inFlight.add(promise);
  void promise.finally(() => inFlight.delete(promise));
  return promise;
}

export interface Players {
  stop(): Promise<void>;
}

/** A due check of a monitor: when it is due next (each monitor's phase spread over the interval). */
interface Due {
  id: string;
  next: number;
}

/** One relay agent: fetches its config, then every 5 s sends the results its monitors produced since, oldest first. */
async function playRelay(token: string, lb: Balancer, stats: Stats, intervalMs: number, stopped: () => boolean) {
  const auth = { authorization: `Bearer ${token}`, 'user-agent': 'warden-relay-loadgen' };
  let etag = '';
  const pollConfig = async (): Promise<string[] | null> => {
    const res = await track(
      send(`${lb.url()}/api/relay/config`, { headers: etag ? { ...auth, 'if-none-match': etag } : auth }),
    );
    stats.requests.config.sent++;
    stats.requests.config.record(res.status, res.ms);
    if (res.status !== '200') return null;
    etag = res.etag ?? '';
    return (JSON.parse(res.body) as { monitors: { id: string }[] }).monitors.map((m) => m.id);
  };
  const ids = await pollConfig();
  if (!ids) throw new Error('a relay could not read its config');
  const start = Date.now();
  const monitors: Due[] = ids.map((id) => ({ id, next: start + Math.random() * intervalMs }));
  const pending: object[] = [];
  let sequence = 0;
  let lastPoll = start;
  let flushed = 0;
  // The agent's first submission falls anywhere in its first 5 s: relays started together do not post in step.
  await new Promise((r) => setTimeout(r, Math.random() * RELAY_SUBMIT_MS));
  while (!stopped()) {
    const now = Date.now();
    for (const m of monitors)
      for (; m.next <= now; m.next += intervalMs) {
        const n = sequence++;
        const players = n % 50;
        stats.offered.relay++;
        pending.push({
          id: randomBytes(12).toString('base64url'),
          monitorId: m.id,
          ok: n % FAIL_EVERY !== FAIL_EVERY - 1,
          latencyMs: 5 + (n % 40),
          message: `${players}/50 players · 1.21.4`,
          data: { players, maxPlayers: 50, version: '1.21.4' },
          checkedAt: Math.round(m.next),
        });
      }
    // Sent even once stopped, as the agent's last delivery at shutdown, but one batch at most: a server far behind
    // would otherwise hold the end for minutes. What is left is counted as never sent.
    while (pending.length > 0) {
      if (stopped() && flushed++ > 0) {
        stats.skipped += pending.splice(0).length;
        break;
      }
      const batch = pending.splice(0, RELAY_BATCH);
      stats.requests.relay.sent++;
      const res = await track(
        send(`${lb.url()}/api/relay/results`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ results: batch }),
        }),
      );
      stats.requests.relay.record(res.status, res.ms);
      // Not retried: a failure is counted, and the batch's results as not acknowledged.
      if (res.status === 'timeout' || res.status === 'error') stats.unanswered.relay += batch.length;
      if (res.status !== '200') continue;
      const answer = JSON.parse(res.body) as { accepted: number; duplicates: number; rejected: unknown[] };
      stats.stored.relay += answer.accepted - answer.duplicates;
      stats.duplicates += answer.duplicates;
      stats.rejected += answer.rejected.length;
    }
    if (now - lastPoll >= CONFIG_POLL_MS) {
      lastPoll = now;
      await pollConfig();
    }
    await new Promise((r) => setTimeout(r, Math.max(0, RELAY_SUBMIT_MS - (Date.now() - now))));
  }
}

/** Heartbeat senders: each token pinged once per interval at its phase, half GET with query parameters, half POST with metrics. */
function playPushers(tokens: string[], lb: Balancer, stats: Stats, intervalMs: number, stopped: () => boolean) {
  const start = Date.now();
  // Every sender keeps the same interval, so the order of their due times is their phases' order, round after round.
  const senders = tokens
    .map((token) => ({ id: token, next: start + Math.random() * intervalMs }))
    .sort((a, b) => a.next - b.next);
  let at = 0;
  let sequence = 0;
  let waiting = 0;
  return everyUntil(20, stopped, () => {
    const now = Date.now();
    for (let s = senders[at] as Due; senders.length > 0 && s.next <= now; s = senders[at] as Due) {
      s.next += intervalMs;
      at = (at + 1) % senders.length;
      stats.offered.push++;
      if (waiting >= MAX_PUSHES_IN_FLIGHT) {
        stats.skipped++;
        continue;
      }
      const n = sequence++;
      const status = n % FAIL_EVERY === FAIL_EVERY - 1 ? 'down' : 'up';
      const ping =
        n % 2 === 0
          ? send(`${lb.url()}/api/push/${s.id}?status=${status}&latency=${n % 90}`, {})
          : send(`${lb.url()}/api/push/${s.id}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                status,
                msg: 'tick',
                latency: n % 90,
                players: n % 64,
                maxPlayers: 64,
                tps: 19.9,
              }),
            });
      waiting++;
      stats.requests.push.sent++;
      void track(ping).then((res) => {
        waiting--;
        stats.requests.push.record(res.status, res.ms);
        if (res.status === '200') stats.stored.push++;
        if (res.status === 'timeout' || res.status === 'error') stats.unanswered.push++;
      });
    }
  });
}

/** Calls `tick` every `ms` until `stopped()` says so; resolves then. */
function everyUntil(ms: number, stopped: () => boolean, tick: () => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (stopped()) {
        clearInterval(timer);
        resolve();
        return;
      }
      tick();
    }, ms);
  });
}

/** Page readers: `perSec` reads of the pages' status JSON a second, the pages in turn. */
function playReaders(slugs: string[], perSec: number, lb: Balancer, stats: Stats, stopped: () => boolean) {
  if (perSec <= 0 || slugs.length === 0) return Promise.resolve();
  let n = 0;
  return everyUntil(1000 / perSec, stopped, () => {
    stats.requests.page.sent++;
    const slug = slugs[n++ % slugs.length] as string;
    void track(send(`${lb.url()}/api/v1/status/${slug}`, {})).then((res) =>
      stats.requests.page.record(res.status, res.ms),
    );
  });
}

/** Starts every player; `stop()` ends them and waits for every answer still due. */
export function play(options: {
  urls: string[];
  relayTokens: string[];
  pushTokens: string[];
  pageSlugs: string[];
  pageReadsPerSec: number;
  intervalMs: number;
  stats: Stats;
}): Players {
  let stopped = false;
  const isStopped = () => stopped;
  const lb = new Balancer(options.urls);
  const { stats } = options;
  const players = [
    ...options.relayTokens.map((token) => playRelay(token, lb, stats, options.intervalMs, isStopped)),
    playPushers(options.pushTokens, lb, stats, options.intervalMs, isStopped),
    playReaders(options.pageSlugs, options.pageReadsPerSec, lb, stats, isStopped),
  ];
  return {
    async stop() {
      stopped = true;
      await Promise.all(players);
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      agent.destroy();
    },
  };
}
