// The bounded HTTP client against the fake website: caps, redirects, aborts, certificates, and nothing left open.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeResources, leakedResources } from '../../test/fakes/handles.js';
import { type FakeServer, startWebsiteFake } from '../../test/fakes/http-fakes.js';
import { describeOverHttps } from '../../test/fakes/probe-runs.js';
import { bodyJson, bodyText, formatBytes, HTTP_GET_LIMITS, httpGet } from './http-get.js';
import { ANY_TARGET, PUBLIC_TARGETS_ONLY } from './target-guard.js';

let site: FakeServer;
let other: FakeServer;

beforeAll(async () => {
  site = await startWebsiteFake();
  other = await startWebsiteFake();
});

afterAll(async () => {
  await site.close();
  await other.close();
});

const get = (path: string, extra: Partial<Parameters<typeof httpGet>[0]> = {}) =>
  httpGet({
    url: `${site.url}${path}`,
    signal: AbortSignal.timeout(1500),
    timeoutMs: 1500,
    guard: ANY_TARGET,
    ...extra,
  });

describe('httpGet', () => {
  it('reads the status, headers and body, and times the headers', async () => {
    const result = await get('/ok');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.response.status).toBe(200);
    expect(result.response.headers['content-type']).toBe('text/html');
    expect(bodyText(result.response)).toContain('Hello from the fake website');
    expect(result.response.truncated).toBe(false);
    expect(result.response.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.response.tls).toBeUndefined();
  });

  it('sends the method, headers and body it is given, with its own User-Agent', async () => {
    const result = await get('/echo', { method: 'POST', headers: { 'x-test': 'yes' }, body: 'payload' });
    if (!result.ok) throw new Error(result.error);
    const echo = bodyJson(result.response) as { method: string; headers: Record<string, string>; body: string };
    expect(echo.method).toBe('POST');
    expect(echo.headers['x-test']).toBe('yes');
    expect(echo.headers['user-agent']).toMatch(/^Warden\//);
    expect(echo.body).toBe('payload');
  });

  it('stops reading an endless body at the cap and says it did', async () => {
    const result = await get('/endless', { maxBodyBytes: 200_000 });
    if (!result.ok) throw new Error(result.error);
    expect(result.response.truncated).toBe(true);
    expect(result.response.body.length).toBe(200_000);
    expect(bodyJson(result.response)).toBeUndefined();
  });

  it('caps at 1 MiB by default', async () => {
    const result = await get('/endless');
    if (!result.ok) throw new Error(result.error);
    expect(result.response.body.length).toBe(HTTP_GET_LIMITS.bodyBytes);
  });

  it('skips the body when asked to', async () => {
    const result = await get('/endless', { readBody: false });
    if (!result.ok) throw new Error(result.error);
    expect(result.response.body.length).toBe(0);
    expect(result.response.truncated).toBe(false);
  });

  it('cuts a trickling body at the timeout', async () => {
    const started = performance.now();
    const result = await get('/trickle', { signal: AbortSignal.timeout(300), timeoutMs: 300 });
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s', code: 'ABORT_ERR' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('gives up on a server that never answers when the signal aborts', async () => {
    const result = await get('/hang', { signal: AbortSignal.timeout(300), timeoutMs: 300 });
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s', code: 'ABORT_ERR' });
  });

  it('returns at once for an already aborted signal', async () => {
    const result = await get('/ok', { signal: AbortSignal.abort(), timeoutMs: 1000 });
    expect(result).toEqual({ ok: false, error: 'timed out after 1 s', code: 'ABORT_ERR' });
  });

  it('follows a redirect chain up to the limit and counts it', async () => {
    const result = await get('/redirect/3', { maxRedirects: 3 });
    if (!result.ok) throw new Error(result.error);
    expect(result.response.status).toBe(200);
    expect(result.response.redirects).toBe(3);
  });

  it('fails a chain longer than the limit', async () => {
    expect(await get('/redirect/4', { maxRedirects: 3 })).toEqual({ ok: false, error: 'more than 3 redirects' });
  });

  it('returns the redirect itself when redirects are not followed', async () => {
    const result = await get('/redirect/1', { maxRedirects: 0 });
    if (!result.ok) throw new Error(result.error);
    expect(result.response.status).toBe(302);
    expect(result.response.headers.location).toBe('/ok');
  });

  it('turns a POST into a GET without a body after a 303', async () => {
    const result = await get('/see-other', { method: 'POST', body: 'data', maxRedirects: 1 });
    if (!result.ok) throw new Error(result.error);
    expect(bodyJson(result.response)).toMatchObject({ method: 'GET', body: '' });
  });

  it('drops every configured header when a redirect leaves the origin, and keeps them within it', async () => {
    const headers = {
      authorization: 'Bearer s3cret-value',
      'X-API-Key': 'key-s3cret',
      cookie: 'session=s3cret',
      'user-agent': 'mine',
      'x-plain': 'plain',
    };
    const result = await get(`/moved-to/${other.port}`, { headers, maxRedirects: 1 });
    if (!result.ok) throw new Error(result.error);
    // The other origin (another port) saw none of them: only what Warden sends on its own.
    const seen = other.requests.at(-1);
    expect(seen?.path).toBe('/echo');
    expect(Object.keys(seen?.headers ?? {}).sort()).toEqual(['connection', 'host', 'user-agent']);
    expect(seen?.headers['user-agent']).toMatch(/^Warden\//);
    expect(JSON.stringify(seen)).not.toContain('s3cret');
    // The first origin got them all; a redirect within one origin keeps them.
    expect(site.requests.at(-1)?.headers['x-api-key']).toBe('key-s3cret');
    const same = await get('/see-other', { method: 'POST', headers, maxRedirects: 1 });
    if (!same.ok) throw new Error(same.error);
    expect((bodyJson(same.response) as { headers: Record<string, string> }).headers).toMatchObject({
      'x-api-key': 'key-s3cret',
      'x-plain': 'plain',
    });
  });

  it('describes a refused connection', async () => {
    const closed = await startWebsiteFake();
    await closed.close();
    expect(
      await httpGet({ url: `${closed.url}/ok`, signal: AbortSignal.timeout(1000), timeoutMs: 1000, guard: ANY_TARGET }),
    ).toEqual({
      ok: false,
      error: 'connection refused',
      code: 'ECONNREFUSED',
    });
  });

  it('keeps header values out of its errors', async () => {
    const result = await get('/ok', { headers: { 'x-token': 'hunter2-secret\n' } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).not.toContain('hunter2-secret');
  });

  it('leaves no socket or timer open, whatever happened', async () => {
    const before = activeResources();
    await Promise.all([
      get('/ok'),
      get('/endless', { maxBodyBytes: 100_000 }),
      get('/trickle', { signal: AbortSignal.timeout(300), timeoutMs: 300 }),
      get('/hang', { signal: AbortSignal.timeout(300), timeoutMs: 300 }),
      get('/redirect/2', { maxRedirects: 5 }),
    ]);
    expect(await leakedResources(before)).toEqual({});
  });

  it('formats byte counts for messages', () => {
    expect(formatBytes(HTTP_GET_LIMITS.bodyBytes)).toBe('1 MiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(12)).toBe('12 bytes');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3 GiB');
  });
});

describeOverHttps('httpGet', (secure) => {
  it('reports the days left on the certificate', async () => {
    const result = await httpGet({
      url: `${secure().url}/ok`,
      ignoreTls: true,
      signal: AbortSignal.timeout(1500),
      timeoutMs: 1500,
      guard: ANY_TARGET,
    });
    if (!result.ok) throw new Error(result.error);
    expect(result.response.tls?.daysRemaining).toBeGreaterThanOrEqual(29);
    expect(result.response.tls?.daysRemaining).toBeLessThanOrEqual(30);
    expect(Date.parse(result.response.tls?.validTo ?? '')).toBeGreaterThan(Date.now());
  });

  it('rejects a self-signed certificate unless told to ignore it', async () => {
    const result = await httpGet({
      url: `${secure().url}/ok`,
      signal: AbortSignal.timeout(1500),
      timeoutMs: 1500,
      guard: ANY_TARGET,
    });
    expect(result).toEqual({
      ok: false,
      error: 'the TLS certificate is self-signed (set ignoreTls to accept it)',
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
  });
});

describe('httpGet through a unix socket', () => {
  let dir: string;
  let server: Server;
  let socketPath: string;
  const seen: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-http-unix-'));
    socketPath = join(dir, 'api.sock');
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.host}`);
      if (req.url === '/moved') return res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"over":"unix"}');
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });
  const viaSocket = (path: string, guard = ANY_TARGET) =>
    httpGet({
      url: `http://localhost${path}`,
      socketPath,
      maxRedirects: 5,
      signal: AbortSignal.timeout(1500),
      timeoutMs: 1500,
      guard,
    });

  it('sends the request through the socket, and follows no redirect', async () => {
    const result = await viaSocket('/containers/web/json');
    expect(result.ok && bodyJson(result.response)).toEqual({ over: 'unix' });
    const moved = await viaSocket('/moved');
    expect(moved.ok && moved.response.status).toBe(302);
    expect(seen).toEqual(['GET /containers/web/json localhost', 'GET /moved localhost']);
  });

  it('is refused under a restricting guard, sending nothing', async () => {
    const before = seen.length;
    expect(await viaSocket('/containers/web/json', PUBLIC_TARGETS_ONLY)).toEqual({
      ok: false,
      error: `refused: ${socketPath} is a unix socket on this machine, not a public address; this organization's probes may reach public addresses only (WARDEN_PROBE_PRIVATE_TARGETS, organization.probePrivateTargets)`,
      code: 'ERR_PROBE_TARGET_REFUSED',
    });
    expect(seen.length).toBe(before);
  });
});
