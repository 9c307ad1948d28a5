// The domain-expiry monitor and http's domainExpiryDays against a registry's RDAP server on 127.0.0.1 (test/fakes/rdap-server.ts):
// expiry dates, redirects to a registrar, 404s, malformed and huge answers (what is remembered: domain-expiry-cache.test.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { leakedResources, quietResources } from '../../test/fakes/handles.js';
import { type FakeServer, startWebsiteFake } from '../../test/fakes/http-fakes.js';
import { probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { inDays } from '../../test/fakes/rdap-server.js';
import { rdapServersForEachTest } from '../../test/fakes/rdap-servers.js';
import { ANY_TARGET } from '../net/target-guard.js';
import { domainExpiry } from './domain-expiry.js';
import { http } from './http.js';
import { forgetRdapAnswers, RDAP_LIMITS } from './rdap.js';
import { rdapBaseUrl, readBootstrap, setRdapBootstrap } from './rdap-bootstrap.js';

const { rdap, check } = rdapServersForEachTest();

describe('the domain-expiry monitor', () => {
  it('is up while the registration has more than warnDays left, asking with the RDAP media type', async () => {
    const expiresAt = inDays(200);
    rdap.registry.route('far.test', { expiresAt });
    const result = await check({ domain: 'far.test' });
    expect(result).toEqual({
      ok: true,
      latencyMs: expect.any(Number),
      message: `far.test expires in 200 days (${expiresAt.slice(0, 10)})`,
      data: {
        domain: 'far.test',
        domainExpiresAt: new Date(expiresAt).toISOString(),
        domainDaysRemaining: 200,
        rdapServer: `127.0.0.1:${rdap.registry.port}`,
        rdapCached: false,
      },
    });
    expect(rdap.registry.requests.at(-1)).toEqual({
      path: '/rdap/domain/far.test',
      accept: 'application/rdap+json, application/json;q=0.9',
    });
  });

  it('is degraded within warnDays of the expiry, and never warns with warnDays 0', async () => {
    rdap.registry.route('soon.test', { expiresAt: inDays(12) });
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
    rdap.registry.route('gone.test', { expiresAt });
    expect(await check({ domain: 'gone.test' })).toMatchObject({
      ok: false,
      error: `the domain gone.test expired on ${expiresAt.slice(0, 10)}`,
      data: { domainDaysRemaining: -3 },
    });
  });

  it('follows the registry to the registrar’s RDAP server, and takes its registrar expiration when that is all it gives', async () => {
    rdap.registry.route('moved.test', { redirect: rdap.registrar.base });
    const expiresAt = inDays(90);
    rdap.registrar.route('moved.test', { expiresAt: null, registrarExpiresAt: expiresAt });
    expect(await check({ domain: 'moved.test' })).toMatchObject({
      ok: true,
      message: `moved.test expires in 90 days (${expiresAt.slice(0, 10)})`,
    });
    expect(rdap.registrar.asked('moved.test')).toBe(1);
  });

  it('says when the registry does not know the domain (404)', async () => {
    expect(await check({ domain: 'nobody.test' })).toEqual({
      ok: false,
      error: `nobody.test is not registered: the RDAP server at 127.0.0.1:${rdap.registry.port} does not know it (404)`,
    });
  });

  it('says when the registry publishes no expiration date', async () => {
    rdap.registry.route('secret.test', { expiresAt: null });
    expect(await check({ domain: 'secret.test' })).toMatchObject({
      ok: false,
      error: `the registry of secret.test publishes no expiration date for it (RDAP at 127.0.0.1:${rdap.registry.port})`,
    });
  });

  it('names malformed, foreign, huge and failed answers', async () => {
    const server = `127.0.0.1:${rdap.registry.port}`;
    rdap.registry.route('broken.test', { status: 200, body: '{"objectClassName": "domain", "events": [' });
    rdap.registry.route('entity.test', {
      status: 200,
      body: JSON.stringify({ objectClassName: 'entity', handle: 'X' }),
    });
    rdap.registry.route('baddate.test', {
      status: 200,
      body: JSON.stringify({ objectClassName: 'domain', events: [{ eventAction: 'expiration', eventDate: 'soon' }] }),
    });
    rdap.registry.route('huge.test', { hugeBytes: RDAP_LIMITS.answerBytes });
    rdap.registry.route('down.test', {
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
    rdap.registry.route('boot.example', { expiresAt: inDays(100) });
    setRdapBootstrap(readBootstrap({ services: [[['example'], [rdap.registry.base]]] }, 'a test bootstrap'));
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
    rdap.registry.route('tidy.test', { expiresAt: inDays(50) });
    const before = await quietResources();
    await check({ domain: 'tidy.test' });
    await check({ domain: 'nobody-else.test' });
    expect(await leakedResources(before)).toEqual({});
  });
});

describe("an http monitor's domainExpiryDays", () => {
  let site: FakeServer;
  beforeAll(async () => {
    site = await startWebsiteFake();
    // The site's host is localhost: a bootstrap that sends its TLD to the fake registry.
    setRdapBootstrap(readBootstrap({ services: [[['localhost'], [rdap.registry.base]]] }, 'a test bootstrap'));
  });
  afterAll(async () => {
    setRdapBootstrap(undefined);
    await site.close();
  });
  afterEach(() => rdap.registry.route('localhost', { status: 404 }));
  const url = () => `http://localhost:${site.port}/ok`;

  it('leaves the check as it is while the domain has time left, recording the expiry', async () => {
    rdap.registry.route('localhost', { expiresAt: inDays(300) });
    expect(await probeDirectly(http, { url: url(), domainExpiryDays: 30 })).toMatchObject({
      ok: true,
      message: 'HTTP 200',
      data: { statusCode: 200, domain: 'localhost', domainDaysRemaining: 300 },
    });
  });

  it('shows the monitor degraded near the expiry, and down after it', async () => {
    rdap.registry.route('localhost', { expiresAt: inDays(7) });
    expect(await probeDirectly(http, { url: url(), domainExpiryDays: 30 })).toMatchObject({
      ok: true,
      degraded: true,
      message: expect.stringMatching(/^HTTP 200, localhost expires in 7 days/),
    });
    forgetRdapAnswers(ANY_TARGET);
    const expiresAt = inDays(-1);
    rdap.registry.route('localhost', { expiresAt });
    expect(await probeDirectly(http, { url: url(), domainExpiryDays: 30 })).toMatchObject({
      ok: false,
      error: `the domain localhost expired on ${expiresAt.slice(0, 10)}`,
    });
  });

  it('never fails the website for an RDAP problem: it says so in the data', async () => {
    rdap.registry.route('localhost', { status: 503 });
    expect(await probeDirectly(http, { url: url(), domainExpiryDays: 30 })).toMatchObject({
      ok: true,
      message: 'HTTP 200',
      data: { domainExpiryError: `the RDAP server at 127.0.0.1:${rdap.registry.port} answered HTTP 503` },
    });
    const byAddress = await probeDirectly(http, { url: `${site.url}/ok`, domainExpiryDays: 30 });
    expect(byAddress).toMatchObject({
      ok: true,
      data: { domainExpiryError: 'the URL names an IP address, which has no domain registration' },
    });
  });

  it('asks nothing without domainExpiryDays', async () => {
    const before = rdap.registry.requests.length;
    expect(await probeDirectly(http, { url: url() })).toMatchObject({ ok: true, message: 'HTTP 200' });
    expect(rdap.registry.requests.length).toBe(before);
  });
});
