// The http monitor against a plain node:http website (and an https one with a throwaway certificate).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverCertificate } from '../../test/fakes/certificates.js';
import { activeResources, leakedResources } from '../../test/fakes/handles.js';
import { type FakeServer, startWebsiteFake } from '../../test/fakes/http-fakes.js';
import { describeOverHttps, probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { formatExpectedStatus, http, httpConfig, parseExpectedStatus, statusMatches } from './http.js';

let site: FakeServer;

beforeAll(async () => {
  site = await startWebsiteFake();
});
afterAll(() => site.close());

const check = (config: Record<string, unknown>, timeoutMs = 1500) => probeDirectly(http, config, timeoutMs);
const run = (config: Record<string, unknown>, timeoutMs = 1500) => runThrough(http, config, timeoutMs);

describe('expectedStatus', () => {
  it('reads a code, a list, ranges, and arrays mixing them', () => {
    expect(parseExpectedStatus(200)).toEqual([[200, 200]]);
    expect(parseExpectedStatus('200-299')).toEqual([[200, 299]]);
    expect(parseExpectedStatus(' 200 , 301-302 ')).toEqual([
      [200, 200],
      [301, 302],
    ]);
    expect(parseExpectedStatus([204, '400-404', '500'])).toEqual([
      [204, 204],
      [400, 404],
      [500, 500],
    ]);
    expect(parseExpectedStatus('299-200')).toEqual([[200, 299]]);
  });

  it('matches codes inside any range, bounds included', () => {
    const ranges = parseExpectedStatus(['200-299', 404]);
    expect(statusMatches(ranges, 200)).toBe(true);
    expect(statusMatches(ranges, 299)).toBe(true);
    expect(statusMatches(ranges, 404)).toBe(true);
    expect(statusMatches(ranges, 300)).toBe(false);
    expect(statusMatches(ranges, 503)).toBe(false);
  });

  it('formats ranges back for error messages', () => {
    expect(formatExpectedStatus(parseExpectedStatus([200, '301-302']))).toBe('200, 301-302');
  });

  it('is validated by the config schema', () => {
    expect(httpConfig.safeParse({ url: 'http://x.test', expectedStatus: '2xx' }).success).toBe(false);
    expect(httpConfig.safeParse({ url: 'http://x.test', expectedStatus: [200, '300-399'] }).success).toBe(true);
    expect(httpConfig.safeParse({ url: 'http://x.test', jsonPath: 'a..b' }).success).toBe(false);
  });
});

describe('http probe', () => {
  it('is up for a 2xx answer, with the status and redirect count in data', async () => {
    const result = await check({ url: `${site.url}/ok` });
    expect(result).toMatchObject({ ok: true, message: 'HTTP 200', data: { statusCode: 200, redirects: 0 } });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.data).not.toHaveProperty('tlsDaysRemaining');
  });

  it('fails an unexpected status with both codes in the error', async () => {
    const result = await check({ url: `${site.url}/status/503` });
    expect(result).toMatchObject({ ok: false, error: 'expected status 200-299, got 503', data: { statusCode: 503 } });
  });

  it('accepts a status the config expects, even an error one', async () => {
    expect(await check({ url: `${site.url}/status/404`, expectedStatus: [200, '400-404'] })).toMatchObject({
      ok: true,
    });
  });

  it('finds a keyword in the body, and fails when it is missing', async () => {
    expect(await check({ url: `${site.url}/ok`, keyword: 'fake website' })).toMatchObject({ ok: true });
    expect(await check({ url: `${site.url}/ok`, keyword: 'x' + 'yz' })).toEqual({
      ok: false,
      error: 'keyword "xyz" not found',
      data: { statusCode: 200, redirects: 0 },
    });
  });

  it('fails when a notKeyword is present', async () => {
    expect(await check({ url: `${site.url}/ok`, notKeyword: 'Hello' })).toMatchObject({
      ok: false,
      error: 'keyword "Hello" found, which must not be there',
    });
    expect(await check({ url: `${site.url}/ok`, notKeyword: 'Error' })).toMatchObject({ ok: true });
  });

  it('reads a JSON value by path and compares it as text', async () => {
    const url = `${site.url}/json`;
    expect(await check({ url, jsonPath: '$.status', jsonExpected: 'healthy' })).toMatchObject({
      ok: true,
      data: { jsonValue: 'healthy' },
    });
    expect(await check({ url, jsonPath: 'data.items[0].count', jsonExpected: 3 })).toMatchObject({ ok: true });
    expect(await check({ url, jsonPath: 'data.ok', jsonExpected: true })).toMatchObject({ ok: true });
    expect(await check({ url, jsonPath: 'data.none', jsonExpected: null })).toMatchObject({ ok: true });
    expect(await check({ url, jsonPath: '$.status', jsonExpected: 'down' })).toMatchObject({
      ok: false,
      error: '"$.status" is "healthy", expected "down"',
    });
    expect(await check({ url, jsonPath: '$.missing.path' })).toMatchObject({
      ok: false,
      error: 'nothing at "$.missing.path" in the JSON body',
    });
    expect(await check({ url: `${site.url}/ok`, jsonPath: '$.status' })).toMatchObject({
      ok: false,
      error: 'the body is not valid JSON',
    });
  });

  it('sends the configured method, headers and body', async () => {
    const result = await check({
      url: `${site.url}/echo`,
      method: 'PUT',
      headers: { 'x-api-key': 'k-123456' },
      body: '{"a":1}',
      jsonPath: 'method',
      jsonExpected: 'PUT',
    });
    expect(result.ok).toBe(true);
    const seen = site.requests.at(-1);
    expect(seen).toMatchObject({ method: 'PUT', body: '{"a":1}' });
    expect(seen?.headers['x-api-key']).toBe('k-123456');
  });

  it('follows redirects up to maxRedirects and fails past it', async () => {
    expect(await check({ url: `${site.url}/redirect/2`, maxRedirects: 2 })).toMatchObject({
      ok: true,
      data: { statusCode: 200, redirects: 2 },
    });
    expect(await check({ url: `${site.url}/redirect/3`, maxRedirects: 2 })).toEqual({
      ok: false,
      error: 'more than 2 redirects',
    });
  });

  it('checks the redirect itself when maxRedirects is 0', async () => {
    expect(await check({ url: `${site.url}/redirect/1`, maxRedirects: 0 })).toMatchObject({
      ok: false,
      error: 'expected status 200-299, got 302',
    });
    expect(await check({ url: `${site.url}/redirect/1`, maxRedirects: 0, expectedStatus: 302 })).toMatchObject({
      ok: true,
    });
  });

  it('stops reading an endless body at 1 MiB and says so when the keyword is not in it', async () => {
    expect(await check({ url: `${site.url}/endless`, keyword: 'needle' })).toMatchObject({
      ok: false,
      error: 'keyword "needle" not found in the first 1 MiB of the body (reading stops there)',
    });
    expect(await check({ url: `${site.url}/endless`, jsonPath: '$.a' })).toMatchObject({
      ok: false,
      error: 'the body is larger than 1 MiB, too large to read as JSON',
    });
  });

  it('is up for an endless body when only the status is checked (the body is never read)', async () => {
    expect(await check({ url: `${site.url}/endless` })).toMatchObject({ ok: true });
  });

  it('times out on a trickling body and on a server that never answers', async () => {
    expect(await check({ url: `${site.url}/trickle`, keyword: 'x' }, 300)).toEqual({
      ok: false,
      error: 'timed out after 0.3 s',
    });
    expect(await check({ url: `${site.url}/hang` }, 300)).toEqual({ ok: false, error: 'timed out after 0.3 s' });
  });

  it('says the connection was refused when nothing listens', async () => {
    const closed = await startWebsiteFake();
    await closed.close();
    expect(await check({ url: `${closed.url}/ok` })).toEqual({ ok: false, error: 'connection refused' });
  });

  it('leaves no socket or timer open', async () => {
    const before = activeResources();
    await Promise.all([
      check({ url: `${site.url}/ok` }),
      check({ url: `${site.url}/endless`, keyword: 'needle' }),
      check({ url: `${site.url}/trickle`, keyword: 'x' }, 300),
      check({ url: `${site.url}/hang` }, 300),
      run({ url: `${site.url}/hang` }, 300),
    ]);
    expect(await leakedResources(before)).toEqual({});
  });
});

describe('http through runProbe', () => {
  it('passes a good check with its latency', async () => {
    const result = await run({ url: `${site.url}/ok`, keyword: 'Hello' });
    expect(result).toMatchObject({ ok: true, message: 'HTTP 200' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('reports the runner timeout on a server that never answers', async () => {
    expect(await run({ url: `${site.url}/hang` }, 300)).toEqual({ ok: false, error: 'timed out after 0.3 s' });
  });

  it('rejects an invalid config plainly', async () => {
    expect(await run({ url: 'ftp://x.test' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^invalid config: /),
    });
  });

  it('never shows header values, whatever goes wrong', async () => {
    const headers = { authorization: 'Bearer sup3r-s3cret-token', 'x-api-key': 'another-secret-value' };
    const results = await Promise.all([
      run({ url: `${site.url}/echo`, headers, keyword: 'not-there' }),
      run({ url: `${site.url}/echo`, headers, jsonPath: 'headers.authorization', jsonExpected: 'nope' }),
      run({ url: `${site.url}/echo`, headers, jsonPath: 'headers.x-api-key' }),
      run({ url: `${site.url}/hang`, headers }, 300),
      run({ url: `${site.url}/ok`, headers: { 'x-bad': 'secret-with-newline\n' } }),
    ]);
    for (const result of results) {
      const text = JSON.stringify(result);
      expect(text).not.toContain('sup3r-s3cret-token');
      expect(text).not.toContain('another-secret-value');
      expect(text).not.toContain('secret-with-newline');
    }
  });
});

describeOverHttps('http', (secure) => {
  it('reports the days until the certificate expires', async () => {
    const result = await check({ url: `${secure().url}/ok`, ignoreTls: true });
    expect(result.ok).toBe(true);
    expect(result.data?.tlsDaysRemaining).toBeGreaterThanOrEqual(29);
    expect(result.data?.tlsDaysRemaining).toBeLessThanOrEqual(30);
    expect(typeof result.data?.tlsValidTo).toBe('string');
    expect(result.message).toMatch(/^HTTP 200, certificate valid for (29|30) more days$/);
  });

  it('fails on a self-signed certificate unless ignoreTls is set', async () => {
    expect(await run({ url: `${secure().url}/ok` })).toEqual({
      ok: false,
      error: 'the TLS certificate is self-signed (set ignoreTls to accept it)',
    });
  });
});

describe('http certificate expiry over https (certificates made with selfsigned)', () => {
  const sites: FakeServer[] = [];
  afterAll(() => Promise.all(sites.map((s) => s.close())));
  /** A website serving a self-signed certificate for 127.0.0.1 that expires in `days` days (negative: expired). */
  const secureSite = async (days: number) => {
    const started = await startWebsiteFake(await serverCertificate({ expiresInDays: days }));
    sites.push(started);
    return started;
  };

  it('shows degraded when the certificate expires in fewer days than certExpiryDays (14 unless set)', async () => {
    const url = `${(await secureSite(5)).url}/ok`;
    expect(await check({ url, ignoreTls: true })).toMatchObject({
      ok: true,
      degraded: true,
      message: 'HTTP 200, certificate expires in 5 days',
      data: { tlsDaysRemaining: 5 },
    });
    expect(await check({ url, ignoreTls: true, certExpiryDays: 5 })).toMatchObject({
      ok: true,
      message: 'HTTP 200, certificate valid for 5 more days',
    });
    const off = await check({ url, ignoreTls: true, certExpiryDays: 0 });
    expect(off).toMatchObject({ ok: true, message: 'HTTP 200, certificate valid for 5 more days' });
    expect(off.degraded).toBeUndefined();
  });

  it('does not warn about the certificate of a check that fails for another reason', async () => {
    const url = `${(await secureSite(5)).url}/status/503`;
    const result = await check({ url, ignoreTls: true });
    expect(result).toMatchObject({
      ok: false,
      error: 'expected status 200-299, got 503',
      data: { tlsDaysRemaining: 5 },
    });
    expect(result.degraded).toBeUndefined();
  });

  it('fails on an expired certificate that ignoreTls let through, naming the day', async () => {
    const result = await check({ url: `${(await secureSite(-2)).url}/ok`, ignoreTls: true });
    expect(result).toMatchObject({ ok: false, data: { statusCode: 200, tlsDaysRemaining: -2 } });
    expect(result.error).toBe(`the TLS certificate expired on ${String(result.data?.tlsValidTo).slice(0, 10)}`);
  });

  it('says the certificate expired when the handshake refuses it', async () => {
    const expired = await secureSite(-2);
    expect(await run({ url: `${expired.url}/ok` })).toEqual({ ok: false, error: 'the TLS certificate has expired' });
  });
});
