// Live-stream caps against a real server: streams per client address (429), streams in all (503 with Retry-After),
// and, by default, a total derived from the process's file-descriptor limit so HTTP keeps descriptors of its own.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { liveConnectionsCap, parseDescriptorLimit } from '../../src/services/live/limits.js';
import { CLI } from '../cli-process.js';
import { seed } from '../seed.js';
import { dialects, type OpenedStore } from '../store-dialects.js';

const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: beat, name: Beat, type: heartbeat, enabled: false }
pages:
  - { slug: acme, title: Acme, components: [{ name: Beat, monitor: beat }] }
`;

interface Opened {
  status: number;
  headers: Record<string, unknown>;
  body: string;
  ws?: WebSocket;
}

/** Opens a stream; a refused handshake resolves with its HTTP answer instead. */
function open(url: string, headers: Record<string, string> = {}): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve({ status: 101, headers: {}, body: '', ws }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    ws.once('error', reject);
  });
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectRefusal(answer: Opened, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(JSON.parse(answer.body)).toMatchObject({ status, type: expect.stringMatching(new RegExp(`/${code}$`)) });
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`live-stream caps on a real server (${dialect.name})`, () => {
    let opened: OpenedStore;
    let warden: Warden;
    const streams: WebSocket[] = [];
    const stream = (from: string) =>
      open(`${warden.url.replace('http', 'ws')}/s/acme/live`, { 'x-forwarded-for': from });

    beforeAll(async () => {
      opened = await dialect.open();
      await seed(opened.store, CONFIG);
      const env = {
        ...opened.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        WARDEN_TRUST_PROXY: '1',
        WARDEN_LIVE_PER_CLIENT: '3',
        WARDEN_LIVE_MAX: '5',
      };
      warden = await startWarden({ settings: readSettings(env), logger: createLogger('silent') });
    });
    afterAll(async () => {
      for (const ws of streams) ws.terminate();
      await warden?.close();
      await opened?.cleanup();
    });

    it('refuses a client address its 4th stream with 429, and takes one again once it closes one', async () => {
      const mine = [];
      for (let i = 0; i < 3; i++) mine.push(await stream('198.51.100.1'));
      expect(mine.map((m) => m.status)).toEqual([101, 101, 101]);
      streams.push(...mine.map((m) => m.ws as WebSocket));
      expectRefusal(await stream('198.51.100.1'), 429, 'too-many-streams-from-client');
      mine[0]?.ws?.close();
      let again: Opened | undefined;
      await eventually(async () => {
        again = await stream('198.51.100.1');
        return again.status === 101;
      }, 'a stream slot of 198.51.100.1 to be free again');
      streams.push(again?.ws as WebSocket);
    });

    it("refuses a malformed handshake with 400 problem+json, not the WebSocket library's bare HTML", async () => {
      const { request } = await import('node:http');
      const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const req = request(`${warden.url}/s/acme/live`, {
          headers: {
            connection: 'Upgrade',
            upgrade: 'websocket',
            'sec-websocket-key': 'not a key',
            'sec-websocket-version': '13',
          },
        });
        req.once('response', (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
          );
        });
        req.once('upgrade', () => reject(new Error('upgraded with a bad key')));
        req.once('error', reject);
        req.end();
      });
      expect(answer.status).toBe(400);
      expect(answer.type).toBe('application/problem+json');
      expect(JSON.parse(answer.body)).toMatchObject({
        status: 400,
        detail: expect.stringContaining('Sec-WebSocket-Key'),
      });
    });

    it('refuses streams past the total with 503 and Retry-After, while HTTP still answers', async () => {
      for (let i = 0; i < 2; i++) {
        const other = await stream('198.51.100.2');
        expect(other.status).toBe(101);
        streams.push(other.ws as WebSocket);
      }
      expectRefusal(await stream('198.51.100.3'), 503, 'too-many-streams');
      expect((await fetch(`${warden.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${warden.url}/s/acme/status.json`)).status).toBe(200);
    });
  });

describe('the total derived from the descriptor limit', () => {
  it('is (soft limit − 256) / 2, read from /proc/self/limits, 1,024 assumed when unreadable', () => {
    expect(liveConnectionsCap(1024)).toBe(384);
    expect(liveConnectionsCap(65_536)).toBe(32_640);
    expect(liveConnectionsCap(100)).toBe(1);
    const limits =
      'Limit                     Soft Limit           Hard Limit           Units\nMax open files            4096                 8192                 files\n';
    expect(parseDescriptorLimit(limits)).toBe(4096);
    expect(parseDescriptorLimit(null)).toBe(1024);
  });

  for (const dialect of dialects)
    describe.skipIf(!dialect.available)(`a server started with 512 descriptors (${dialect.name})`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'warden-fd-'));
      let opened: OpenedStore;
      let child: ChildProcess;
      let url = '';
      const streams: WebSocket[] = [];

      beforeAll(async () => {
        writeFileSync(join(dir, 'warden.yaml'), CONFIG);
        opened = await dialect.open();
        // The hard limit too: Node raises its soft limit to the hard one when it starts. (Much below 512, loading the
        // module graph at start-up — the ESM loader reads many files at once — runs out of descriptors by itself.)
        child = spawn('/bin/sh', ['-c', 'ulimit -n 512 && exec "$0" "$@"', process.execPath, CLI, 'serve'], {
          env: {
            ...process.env,
            PORT: '0',
            HOST: '127.0.0.1',
            LOG_LEVEL: 'info',
            ...opened.env,
            WARDEN_CONFIG: join(dir, 'warden.yaml'),
            WARDEN_LIVE_PER_CLIENT: '100000',
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let log = '';
        url = await new Promise<string>((resolve, reject) => {
          child.stderr?.on('data', (d: Buffer) => {
            log += d;
            const match = /"url":"(http:\/\/[^"]+)"/.exec(log);
            if (match) resolve((match[1] as string).replace('localhost', '127.0.0.1'));
          });
          child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${log}`)));
        });
      });
      afterAll(async () => {
        for (const ws of streams) ws.terminate();
        if (child.exitCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
        await opened?.cleanup();
        rmSync(dir, { recursive: true, force: true });
      });

      it('takes (512 − 256) / 2 = 128 streams, answers the next 503, and still serves HTTP', async () => {
        const soft = parseDescriptorLimit(readFileSync(`/proc/${child.pid}/limits`, 'utf8'));
        expect(soft).toBe(512);
        const cap = liveConnectionsCap(soft);
        expect(cap).toBe(128);
        for (let i = 0; i < cap; i++) {
          const answer = await open(`${url.replace('http', 'ws')}/s/acme/live`);
          expect(answer.status, `stream ${i + 1}`).toBe(101);
          streams.push(answer.ws as WebSocket);
        }
        expectRefusal(await open(`${url.replace('http', 'ws')}/s/acme/live`), 503, 'too-many-streams');
        const reads = await Promise.all(
          Array.from({ length: 20 }, () => fetch(`${url}/s/acme/status.json`).then((r) => r.status)),
        );
        expect(reads).toEqual(reads.map(() => 200));
      });
    });
});
