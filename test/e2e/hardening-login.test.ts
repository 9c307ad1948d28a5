// Page passwords against a real server process: the login form reads no more than its cap however the body is framed,
// guesses run scrypt off the event loop, the 11th wrong password in a minute is refused (form, Bearer, live stream)
// without being checked, and a page password has at least 8 characters in warden.yaml and the API.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApiKey } from '../../src/services/api-keys/create.js';
import { runCli, type ServerProcess, startServer } from '../cli-process.js';
import { seed, testContext } from '../seed.js';
import { dialects, type OpenedStore } from '../store-dialects.js';

const PASSWORD = 'correct-horse-battery';
const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: beat, name: Beat, type: heartbeat, enabled: false }
pages:
  - { slug: vault, title: Vault of Secrets, description: Top secret plans, password: "${PASSWORD}", components: [{ name: Beat, monitor: beat }] }
  - { slug: annex, title: Annex, password: "${PASSWORD}", components: [{ name: Beat, monitor: beat }] }
`;
const BODY_BYTES = 50 * 1024 * 1024;

/** The server's resident memory (Linux), in bytes. */
function rssOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** Streams a chunked body (no Content-Length) until the server answers or `total` bytes are written. */
function streamUntilAnswered(
  url: string,
  total: number,
): Promise<{ status: number; type: string | undefined; body: string; written: number }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = 0;
    let answered = false;
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      (res) => {
        answered = true;
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body, written });
        });
      },
    );
    req.on('error', (error) => (answered ? undefined : reject(error)));
    req.write('password=');
    const pump = () => {
      while (!answered && written < total) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/** Declares a 10 MB body, sends a few bytes of it and resolves with the status of the answer. */
function declaredTooLong(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-length': String(10 * 1024 * 1024) } }, (res) => {
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.write('password=');
  });
}

/** The HTTP answer to a live-stream handshake that is refused. */
function handshake(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, headers: {}, body: '' });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    ws.once('error', (error) => reject(error));
  });
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`page passwords against a real server (${dialect.name})`, () => {
    let opened: OpenedStore;
    let server: ServerProcess;
    let writeKey: string;
    let client = 0;
    /** A fresh client address for each scenario (the server trusts X-Forwarded-For here), so limits do not mix. */
    const nextClient = () => `203.0.113.${++client}`;
    const form = (slug: string, password: string, from: string) =>
      fetch(`${server.url}/s/${slug}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'x-forwarded-for': from },
        body: new URLSearchParams({ password }),
      });
    const bearer = (slug: string, password: string, from: string) =>
      fetch(`${server.url}/api/v1/status/${slug}`, {
        headers: { authorization: `Bearer ${password}`, 'x-forwarded-for': from },
      });
    const live = (slug: string, password: string, from: string) =>
      handshake(`${server.url.replace('http', 'ws')}/s/${slug}/live`, {
        authorization: `Bearer ${password}`,
        'x-forwarded-for': from,
      });

    beforeAll(async () => {
      opened = await dialect.open();
      const { report } = await seed(opened.store, CONFIG);
      writeKey = (
        await createApiKey(
          { ...testContext(opened.store), organizationId: report.organization.id },
          { name: 'w', scope: 'write' },
        )
      ).secret;
      server = await startServer([], { ...opened.env, WARDEN_TRUST_PROXY: '1' });
    });
    afterAll(async () => {
      await server?.stop();
      await opened?.cleanup();
    });

    it('answers a 50 MB chunked login body with 413 before the client is done, without holding it in memory', async () => {
      const before = rssOf(server.child.pid as number);
      const answer = await streamUntilAnswered(`${server.url}/s/vault/login`, BODY_BYTES);
      expect(answer.status).toBe(413);
      expect(answer.type).toBe('application/problem+json');
      expect(JSON.parse(answer.body)).toMatchObject({ status: 413, type: expect.stringMatching(/body-too-large$/) });
      expect(answer.written).toBeLessThan(BODY_BYTES);
      expect(rssOf(server.child.pid as number) - before).toBeLessThan(BODY_BYTES / 2);
      // A declared length past the cap is refused before a byte is read; the server still answers.
      expect(await declaredTooLong(`${server.url}/s/vault/login`)).toBe(413);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    });

    it('keeps the event loop free while 16 guessers wait for scrypt: /healthz answers before their guesses do', async () => {
      let lastGuess = 0;
      let healthz = 0;
      const guessers = Array.from({ length: 16 }, () => nextClient());
      const guesses = guessers.flatMap((from) =>
        Array.from({ length: 3 }, (_, i) =>
          form('vault', `wrong-guess-${i}`, from).then(async (res) => {
            lastGuess = performance.now();
            return { status: res.status, body: await res.text() };
          }),
        ),
      );
      for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      healthz = performance.now();
      const answers = await Promise.all(guesses);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 401));
      expect(healthz).toBeLessThan(lastGuess);
    });

    it('refuses the 11th wrong password in a minute with 429 and Retry-After, on the form, unchecked', async () => {
      const from = nextClient();
      for (let i = 0; i < 10; i++) expect((await form('vault', `wrong-${i}-guess`, from)).status).toBe(401);
      const limited = await form('vault', 'wrong-10-guess', from);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(limited.headers.get('content-type')).toContain('text/html');
      expect(await limited.text()).toContain('Too many wrong passwords');
      // While limited, even the right password is not checked; another page, or another address, is not limited.
      expect((await form('vault', PASSWORD, from)).status).toBe(429);
      expect((await form('annex', PASSWORD, from)).status).toBe(303);
      expect((await form('vault', PASSWORD, nextClient())).status).toBe(303);
    });

    it('refuses the 11th wrong Bearer password with 429 problem+json and Retry-After', async () => {
      const from = nextClient();
      for (let i = 0; i < 10; i++) expect((await bearer('vault', `wrong-${i}-guess`, from)).status).toBe(401);
      const limited = await bearer('vault', 'wrong-10-guess', from);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('content-type')).toBe('application/problem+json');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await limited.json()).toMatchObject({ status: 429, type: expect.stringMatching(/too-many-attempts$/) });
    });

    it('refuses the 11th wrong password on the live-stream handshake with 429 and Retry-After', async () => {
      const from = nextClient();
      for (let i = 0; i < 10; i++) expect((await live('vault', `wrong-${i}-guess`, from)).status).toBe(401);
      const limited = await live('vault', 'wrong-10-guess', from);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(limited.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(limited.body)).toMatchObject({
        status: 429,
        type: expect.stringMatching(/too-many-attempts$/),
      });
      expect((await live('vault', PASSWORD, nextClient())).status).toBe(101);
    });

    it('counts wrong passwords from the form, the Bearer header and the handshake together', async () => {
      const from = nextClient();
      for (let i = 0; i < 4; i++) expect((await form('annex', `wrong-form-${i}`, from)).status).toBe(401);
      for (let i = 0; i < 3; i++) expect((await bearer('annex', `wrong-bearer-${i}`, from)).status).toBe(401);
      for (let i = 0; i < 3; i++) expect((await live('annex', `wrong-live-${i}`, from)).status).toBe(401);
      expect((await bearer('annex', 'one-more-guess', from)).status).toBe(429);
    });

    it('refuses a page password shorter than 8 characters through the API, naming the field', async () => {
      const call = (method: string, path: string, body: unknown) =>
        fetch(`${server.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const created = await call('POST', '/api/v1/pages', { slug: 'short', title: 'Short', password: 'hunter2' });
      expect(created.status).toBe(400);
      expect(created.headers.get('content-type')).toBe('application/problem+json');
      expect((await created.json()).errors).toEqual([
        { path: 'body.password', message: 'must be at least 8 characters' },
      ]);
      const patched = await call('PATCH', '/api/v1/pages/annex', { password: '1234567' });
      expect(patched.status).toBe(400);
      expect((await patched.json()).errors).toEqual([
        { path: 'body.password', message: 'must be at least 8 characters' },
      ]);
      expect((await call('POST', '/api/v1/pages', { slug: 'long', title: 'Long', password: '12345678' })).status).toBe(
        201,
      );
    });
  });

describe('a page password in warden.yaml', () => {
  it('is refused by config check and by serve when shorter than 8 characters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-short-'));
    try {
      const file = join(dir, 'warden.yaml');
      writeFileSync(
        file,
        'organization: { name: A }\npages:\n  - { slug: a, title: A, password: "${PAGE_PASSWORD}" }\n',
      );
      const checked = await runCli(['config', 'check', file], { PAGE_PASSWORD: 'hunter2' });
      expect(checked.code).toBe(1);
      expect(checked.stderr).toContain('pages[0].password: must be at least 8 characters');
      await expect(
        startServer([], { WARDEN_DATA_DIR: dir, DATABASE_URL: '', WARDEN_CONFIG: file, PAGE_PASSWORD: 'hunter2' }),
      ).rejects.toThrow(/pages\[0\]\.password/);
      expect((await runCli(['config', 'check', file], { PAGE_PASSWORD: 'hunter22' })).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
