// The domain-expiry monitor and http's domainExpiryDays against a registry's RDAP server on 127.0.0.1 (test/fakes/rdap-server.ts):
// expiry dates, redirects to a registrar, 404s, rate limits, malformed and huge answers, and what is remembered for how long.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { leakedResources, quietResources } from '../../test/fakes/handles.js';
import { type FakeServer, startWebsiteFake } from '../../test/fakes/http-fakes.js';
import { probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { type FakeRdap, inDays, startRdapServer } from '../../test/fakes/rdap-server.js';
import { ANY_TARGET, PUBLIC_TARGETS_ONLY, type TargetGuard } from '../net/target-guard.js';
import { domainExpiry } from './domain-expiry.js';
import { http } from './http.js';
import type { ProbeContext } from './probe.js';
import { forgetRdapAnswers, lookupDomainExpiry, RDAP_LIMITS } from './rdap.js';
import { rdapBaseUrl, readBootstrap, setRdapBootstrap } from './rdap-bootstrap.js';

const HOUR_MS = 3_600_000;

let registry: FakeRdap;
let registrar: FakeRdap;
beforeAll(async () => {
  registry = await startRdapServer();
  registrar = await startRdapServer();
});
afterAll(async () => {
  await registry.close();
  await registrar.close();
});
beforeEach(() => {
  forgetRdapAnswers(ANY_TARGET);
  forgetRdapAnswers(PUBLIC_TARGETS_ONLY);
});

const check = (config: Record<string, unknown>, timeoutMs = 2000) =>
  probeDirectly(domainExpiry, { rdapUrl: registry.base, ...config }, timeoutMs);
const context = (guard: TargetGuard = ANY_TARGET, timeoutMs = 2000): ProbeContext => ({
  signal: AbortSignal.timeout(timeoutMs),
  timeoutMs,
  guard,
});

describe('the domain-expiry monitor', () => {
  it('is up while the registration has more than warnDays left, asking with the RDAP media type', async () => {
    const expiresAt = inDays(200);
    registry.route('far.test', { expiresAt });
    const result = await check({ domain: 'far.test' });
    expect(result).toEqual({
      ok: true,
      latencyMs: expect.any(Number),
      message: `far.test expires in 200 days (${expiresAt.slice(0, 10)})`,
      data: {
        domain: 'far.test',
        domainExpiresAt: new Date(expiresAt).toISOString(),
        domainDaysRemaining: 200,
        rdapServer: `127.0.0.1:${registry.port}`,
        rdapCached: false,
      },
    });
    expect(registry.requests.at(-1)).toEqual({
      path: '/rdap/domain/far.test',
      accept: 'application/rdap+json, application/json;q=0.9',
    });
  });

  it('is degraded within warnDays of the expiry, and never warns with warnDays 0', async () => {
    registry.route('soon.test', { expiresAt: inDays(12) });
    expect(await check({ domain: 'soon.test' })).toMatchObject({
      ok: true,
      degraded: true,
      message: expect.stringMatching(/^soon\.test expires in 12 days \(\d{4}-\d\d-\d\d\)$/),
    });
    const quiet = await check({ domain: 'soon.test', warnDays: 0 });
    expect(quiet).toMatchObject({ ok: true, message: expect.stringMatching(/^soon\.test expires in 12 days/) });
    expect(quiet.degraded).toBeUndefined();
  });

  it('is down once the registration expired', async () => {
    const expiresAt = inDays(-3);
    registry.route('gone.test', { expiresAt });
    expect(await check({ domain: 'gone.test' })).toMatchObject({
      ok: false,
      error: `the domain gone.test expired on ${expiresAt.slice(0, 10)}`,
      data: { domainDaysRemaining: -3 },
    });
  });

  it('follows the registry to the registrar’s RDAP server, and takes its registrar expiration when that is all it gives', async () => {
    registry.route('moved.test', { redirect: registrar.base });
    const expiresAt = inDays(90);
    registrar.route('moved.test', { expiresAt: null, registrarExpiresAt: expiresAt });
    expect(await check({ domain: 'moved.test' })).toMatchObject({
      ok: true,
      message: `moved.test expires in 90 days (${expiresAt.slice(0, 10)})`,
    });
    expect(registrar.asked('moved.test')).toBe(1);
  });

  it('says when the registry does not know the domain (404)', async () => {
    expect(await check({ domain: 'nobody.test' })).toEqual({
      ok: false,
      error: `nobody.test is not registered: the RDAP server at 127.0.0.1:${registry.port} does not know it (404)`,
    });
  });

  it('says when the registry publishes no expiration date', async () => {
    registry.route('secret.test', { expiresAt: null });
    expect(await check({ domain: 'secret.test' })).toMatchObject({
      ok: false,
      error: `the registry of secret.test publishes no expiration date for it (RDAP at 127.0.0.1:${registry.port})`,
    });
  });

  it('names malformed, foreign, huge and failed answers', async () => {
    const server = `127.0.0.1:${registry.port}`;
    registry.route('broken.test', { status: 200, body: '{"objectClassName": "domain", "events": [' });
    registry.route('entity.test', { status: 200, body: JSON.stringify({ objectClassName: 'entity', handle: 'X' }) });
    registry.route('baddate.test', {
      status: 200,
      body: JSON.stringify({ objectClassName: 'domain', events: [{ eventAction: 'expiration', eventDate: 'soon' }] }),
    });
    registry.route('huge.test', { hugeBytes: RDAP_LIMITS.answerBytes });
    registry.route('down.test', {
      status: 503,
      body: JSON.stringify({ errorCode: 503, title: 'Service Unavailable' }),
    });
    expect(await check({ domain: 'broken.test' })).toEqual({
      ok: false,
      error: `the RDAP answer from ${server} is not JSON`,
    });
    expect(await check({ domain: 'entity.test' })).toEqual({
      ok: false,
      error: `the RDAP answer from ${server} is not a domain object (objectClassName "entity")`,
    });
    expect(await check({ domain: 'baddate.test' })).toEqual({
      ok: false,
      error: `the RDAP answer from ${server} gives an expiration date that is not a date: "soon"`,
    });
    expect(await check({ domain: 'huge.test' })).toEqual({
      ok: false,
      error: `the RDAP answer from ${server} is larger than 256 KiB`,
    });
    expect(await check({ domain: 'down.test' })).toEqual({
      ok: false,
      error: `the RDAP server at ${server} answered HTTP 503: Service Unavailable`,
    });
  });

  it('finds the RDAP server in the bootstrap registry, and says when there is none', async () => {
    expect(rdapBaseUrl('example.com')).toBe('https://rdap.verisign.com/com/v1/');
    expect(rdapBaseUrl('shop.example.co.uk')).toBe('https://rdap.nominet.uk/uk/');
    expect(rdapBaseUrl('EXAMPLE.ORG.')).toBe('https://rdap.publicinterestregistry.org/rdap/');
    expect(rdapBaseUrl('example.invalid')).toBeUndefined();
    expect(await probeDirectly(domainExpiry, { domain: 'example.invalid' })).toEqual({
      ok: false,
      error: "no RDAP server is known for .invalid (IANA's bootstrap registry names none; set rdapUrl)",
    });
  });

  it('asks the server a bootstrap file names for the TLD', async () => {
    registry.route('boot.example', { expiresAt: inDays(100) });
    setRdapBootstrap(readBootstrap({ services: [[['example'], [registry.base]]] }, 'a test bootstrap'));
    try {
      expect(await probeDirectly(domainExpiry, { domain: 'boot.example' })).toMatchObject({
        ok: true,
        message: expect.stringMatching(/^boot\.example expires in 100 days/),
      });
    } finally {
      setRdapBootstrap(undefined);
    }
    expect(() => readBootstrap({ services: [] }, 'dns.json')).toThrow(
      'dns.json is not an RDAP bootstrap file: services: expected at least one service',
    );
    expect(() => readBootstrap({ services: [[['example'], ['ftp://x/']]] }, 'dns.json')).toThrow(
      'dns.json names no http(s) RDAP server',
    );
  });

  it('wants a registered domain name', async () => {
    expect(await runThrough(domainExpiry, { domain: '192.0.2.1' })).toEqual({
      ok: false,
      error: 'invalid config: expected a registered domain name such as example.com',
    });
    expect(await runThrough(domainExpiry, { domain: 'localhost' })).toEqual({
      ok: false,
      error: 'invalid config: expected a registered domain name such as example.com',
    });
  });

  it('leaves no socket or timer open', async () => {
    registry.route('tidy.test', { expiresAt: inDays(50) });
    const before = await quietResources();
    await check({ domain: 'tidy.test' });
    await check({ domain: 'nobody-else.test' });
    expect(await leakedResources(before)).toEqual({});
  });
});

describe('what is remembered of RDAP answers', () => {
  it('keeps an answer for hours, whatever the interval, then asks again', async () => {
    registry.route('kept.test', { expiresAt: inDays(200) });
    const now = Date.now();
    const first = await lookupDomainExpiry('kept.test', context(), { rdapUrl: registry.base, now });
    const again = await lookupDomainExpiry('kept.test', context(), {
      rdapUrl: registry.base,
      now: now + RDAP_LIMITS.cacheMs - 1,
    });
    expect(first).toMatchObject({ ok: true, cached: false });
    expect(again).toMatchObject({ ok: true, cached: true, expiresAt: (first as { expiresAt: string }).expiresAt });
    expect(registry.asked('kept.test')).toBe(1);
    await lookupDomainExpiry('kept.test', context(), { rdapUrl: registry.base, now: now + RDAP_LIMITS.cacheMs });
    expect(registry.asked('kept.test')).toBe(2);
  });

  it('keeps an answer for an hour only when the domain expires soon or is not found, so a renewal shows', async () => {
    registry.route('renewing.test', { expiresAt: inDays(5) });
    const now = Date.now();
    for (const name of ['renewing.test', 'unknown.test']) {
      await lookupDomainExpiry(name, context(), { rdapUrl: registry.base, now });
      await lookupDomainExpiry(name, context(), { rdapUrl: registry.base, now: now + HOUR_MS - 1 });
      expect(registry.asked(name)).toBe(1);
      await lookupDomainExpiry(name, context(), { rdapUrl: registry.base, now: now + HOUR_MS });
      expect(registry.asked(name)).toBe(2);
    }
  });

  it('honours a rate limit’s Retry-After, and asks again at once after a failure', async () => {
    registry.route('limited.test', { status: 429, headers: { 'retry-after': '600' } });
    const now = Date.now();
    const limited = await lookupDomainExpiry('limited.test', context(), { rdapUrl: registry.base, now });
    expect(limited).toEqual({
      ok: false,
      error: `the RDAP server at 127.0.0.1:${registry.port} limits how often it is asked (429); asking again in 10 min`,
    });
    expect(await lookupDomainExpiry('limited.test', context(), { rdapUrl: registry.base, now: now + 599_000 })).toEqual(
      limited,
    );
    expect(registry.asked('limited.test')).toBe(1);

    registry.route('flaky.test', { status: 500 });
    await lookupDomainExpiry('flaky.test', context(), { rdapUrl: registry.base, now });
    registry.route('flaky.test', { expiresAt: inDays(100) });
    expect(await lookupDomainExpiry('flaky.test', context(), { rdapUrl: registry.base, now })).toMatchObject({
      ok: true,
      cached: false,
    });
    expect(registry.asked('flaky.test')).toBe(2);
  });

  it('never hands an answer read where any target is allowed to a check under deny', async () => {
    registry.route('private.test', { expiresAt: inDays(100) });
    expect(await lookupDomainExpiry('private.test', context(), { rdapUrl: registry.base })).toMatchObject({ ok: true });
    const refused = await lookupDomainExpiry('private.test', context(PUBLIC_TARGETS_ONLY), { rdapUrl: registry.base });
    expect(refused).toEqual({
      ok: false,
      error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address;/),
    });
  });

  it('walks up from a host to the domain the registry knows', async () => {
    registry.route('example.test', { expiresAt: inDays(150) });
    const found = await lookupDomainExpiry('www.shop.example.test', context(), {
      rdapUrl: registry.base,
      parents: true,
    });
    expect(found).toMatchObject({ ok: true, domain: 'example.test' });
    expect(registry.requests.slice(-3).map((r) => r.path)).toEqual([
      '/rdap/domain/www.shop.example.test',
      '/rdap/domain/shop.example.test',
      '/rdap/domain/example.test',
    ]);
  });
});

describe("an http monitor's domainExpiryDays", () => {
  let site: FakeServer;
  beforeAll(async () => {
    site = await startWebsiteFake();
    // The site's host is localhost: a bootstrap that sends its TLD to the fake registry.
    setRdapBootstrap(readBootstrap({ services: [[['localhost'], [registry.base]]] }, 'a test bootstrap'));
  });
  afterAll(async () => {
    setRdapBootstrap(undefined);
    await site.close();
  });
  afterEach(() => registry.route('localhost', { status: 404 }));
  const url = () => `http://localhost:${site.port}/ok`;

  it('leaves the check as it is while the domain has time left, recording the expiry', async () => {
    registry.route('localhost', { expiresAt: inDays(300) });
    expect(await probeDirectly(http, { url: url(), domainExpiryDays: 30 })).toMatchObject({
      ok: true,
      message: 'HTTP 200',
      data: { statusCode: 200, domain: 'localhost', domainDaysRemaining: 300 },
    });
  });

  it('shows the monitor degraded near the expiry, and down after it', async () => {
    registry.route('localhost', { expiresAt: inDays(7) });
    expect(await probeDirectly(http, { url: url(), domainExpiryDays: 30 })).toMatchObject({
      ok: true,
      degraded: true,
      message: expect.stringMatching(/^HTTP 200, localhost expires in 7 days/),
    });
    forgetRdapAnswers(ANY_TARGET);
    const expiresAt = inDays(-1);
    registry.route('localhost', { expiresAt });
    expect(await probeDirectly(http, { url: url(), domainExpiryDays: 30 })).toMatchObject({
      ok: false,
      error: `the domain localhost expired on ${expiresAt.slice(0, 10)}`,
    });
  });

  it('never fails the website for an RDAP problem: it says so in the data', async () => {
    registry.route('localhost', { status: 503 });
    expect(await probeDirectly(http, { url: url(), domainExpiryDays: 30 })).toMatchObject({
      ok: true,
      message: 'HTTP 200',
      data: { domainExpiryError: `the RDAP server at 127.0.0.1:${registry.port} answered HTTP 503` },
    });
    const byAddress = await probeDirectly(http, { url: `${site.url}/ok`, domainExpiryDays: 30 });
    expect(byAddress).toMatchObject({
      ok: true,
      data: { domainExpiryError: 'the URL names an IP address, which has no domain registration' },
    });
  });

  it('asks nothing without domainExpiryDays', async () => {
    const before = registry.requests.length;
    expect(await probeDirectly(http, { url: url() })).toMatchObject({ ok: true, message: 'HTTP 200' });
    expect(registry.requests.length).toBe(before);
  });
});
