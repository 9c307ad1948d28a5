// `npm run soak:notifications` (also `npm run bench notifications-soak`): a webhook receiver down for two real minutes.
// A `warden serve` process (SQLite) with 10 heartbeat monitors flipping down and up by push while nothing listens on the
// channel's port; then the receiver comes up there. Every message must arrive afterwards, each once (by webhook-id), in
// order per monitor; reports how long after the receiver's return the last one came (retries back off with full jitter).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWardenProcess } from './processes.js';
import type { Benchmark } from './run.js';
import { startRecordingReceiver } from './webhook-receiver.js';

const MONITORS = 10;
const DOWN_SEC = 120;
const FLIP_EVERY_SEC = 10;
/** Longest wait for the last message after the receiver is back: past the backoff's reach after two minutes of failures. */
const DRAIN_LIMIT_SEC = 600;
const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

const tokens = Array.from({ length: MONITORS }, (_, i) => `wdp_soakHeartbeatToken${String(i).padStart(10, '0')}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export const benchmark: Benchmark = {
  name: 'notifications-soak',
  description: `a webhook receiver down for ${DOWN_SEC} s while ${MONITORS} monitors flip: every message afterwards, once each, in order per monitor`,
  async run() {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'warden-soak-'));
    writeFileSync(
      join(dir, 'warden.yaml'),
      [
        'organization: { key: soak, name: Soak }',
        'monitors:',
        ...tokens.map(
          (token, i) =>
            `  - { key: m${i}, name: Monitor ${i}, type: heartbeat, intervalSec: 3600, pushToken: ${token}, config: { graceSec: 3600 } }`,
        ),
        'notifications:',
        `  - { key: hook, name: Hook, type: webhook, config: { url: "http://127.0.0.1:${port}/hook", secret: "${SECRET}" } }`,
      ].join('\n'),
    );
    const server = await startWardenProcess({ WARDEN_CONFIG: join(dir, 'warden.yaml') });
    try {
      // What each monitor was told, in order: false = down, true = up. Monitor i flips every FLIP_EVERY_SEC × (1 + i % 3).
      const sent: boolean[][] = tokens.map(() => []);
      const started = Date.now();
      for (let second = 0; second < DOWN_SEC; second += FLIP_EVERY_SEC) {
        await sleep(started + second * 1000 - Date.now());
        for (const [i, token] of tokens.entries()) {
          const every = FLIP_EVERY_SEC * (1 + (i % 3));
          if (second % every !== 0) continue;
          const up = (second / every) % 2 === 1;
          const res = await fetch(`${server.url}/api/push/${token}?status=${up ? 'up' : 'down'}&msg=soak`);
          if (res.status !== 200) throw new Error(`push answered ${res.status}`);
          sent[i]?.push(up);
        }
      }
      await sleep(started + DOWN_SEC * 1000 - Date.now());
      const expected = sent.reduce((sum, list) => sum + list.length, 0);
      const receiver = await startRecordingReceiver(port);
      const back = Date.now();
      try {
        let arrivals = await receiver.arrivals();
        while (new Set(arrivals.map((a) => a.id)).size < expected && Date.now() - back < DRAIN_LIMIT_SEC * 1000) {
          await sleep(1000);
          arrivals = await receiver.arrivals();
        }
        await sleep(2000);
        arrivals = await receiver.arrivals();
        const ids = arrivals.map((a) => a.id);
        const unique = new Set(ids).size;
        const lastSec = (Math.max(...arrivals.map((a) => a.at)) - back) / 1000;
        let inOrder = true;
        for (const [i, told] of sent.entries()) {
          const mine = arrivals.filter((a) => a.monitorKey === `m${i}`);
          const kinds = mine.map((a) => a.kind);
          const times = mine.map((a) => a.eventAt as number);
          const wanted = told.map((up) => (up ? 'monitor.recovered' : 'monitor.down'));
          inOrder &&=
            JSON.stringify(kinds) === JSON.stringify(wanted) &&
            times.every((t, k) => k === 0 || t > (times[k - 1] as number));
        }
        console.log(`${expected} state changes while the receiver was down for ${DOWN_SEC} s (SQLite, warden serve)`);
        console.log(
          `after it came back: ${unique} distinct messages, ${ids.length - unique} duplicates, the last ${lastSec.toFixed(1)} s later; in order per monitor: ${inOrder ? 'yes' : 'NO'}`,
        );
        return unique === expected && ids.length === expected && inOrder;
      } finally {
        await receiver.stop();
      }
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
