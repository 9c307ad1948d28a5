// The dns monitor against a fake dns2 server on 127.0.0.1: every record type, NXDOMAIN, mismatches and a silent resolver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDnsServer, startDnsFake, startSilentDnsFake } from '../../test/fakes/dns-server.js';
import { activeResources, leakedResources } from '../../test/fakes/handles.js';
import { probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { dns, normalize } from './dns.js';

let server: FakeDnsServer;
let silent: FakeDnsServer;

beforeAll(async () => {
  server = await startDnsFake({
    'example.test': {
      A: [{ address: '192.0.2.10' }, { address: '192.0.2.11' }],
      AAAA: [{ address: '2001:db8::1' }],
      MX: [
        { priority: 10, exchange: 'mail.example.test' },
        { priority: 20, exchange: 'backup.example.test' },
      ],
      TXT: [{ data: 'v=spf1 -all' }, { data: ['first chunk, ', 'second chunk'] }],
      NS: [{ ns: 'ns1.example.test' }, { ns: 'NS2.Example.Test' }],
      CAA: [{ flags: 0, tag: 'issue', value: 'letsencrypt.org' }],
    },
    'www.example.test': { CNAME: [{ domain: 'example.test' }] },
    '_minecraft._tcp.example.test': { SRV: [{ priority: 0, weight: 5, port: 25565, target: 'mc.example.test' }] },
    'empty.example.test': {},
    'broken.example.test': { rcode: 2 },
  });
  silent = await startSilentDnsFake();
});

afterAll(async () => {
  await server.close();
  await silent.close();
});

const check = (config: Record<string, unknown>, timeoutMs = 1500) =>
  probeDirectly(dns, { resolver: server.address, ...config }, timeoutMs);
const run = (config: Record<string, unknown>, timeoutMs = 1500) =>
  runThrough(dns, { resolver: server.address, ...config }, timeoutMs);

describe('dns probe', () => {
  it.each([
    ['A', 'example.test', ['192.0.2.10', '192.0.2.11'], '192.0.2.11'],
    ['AAAA', 'example.test', ['2001:db8::1'], '2001:DB8:0:0::1'],
    ['CNAME', 'www.example.test', ['example.test'], 'Example.Test.'],
    ['MX', 'example.test', ['10 mail.example.test', '20 backup.example.test'], '20 backup.example.test.'],
    ['TXT', 'example.test', ['v=spf1 -all', 'first chunk, second chunk'], '"first chunk, second chunk"'],
    ['NS', 'example.test', ['ns1.example.test', 'ns2.example.test'], 'NS2.example.test'],
    ['SRV', '_minecraft._tcp.example.test', ['0 5 25565 mc.example.test'], '0 5 25565 mc.example.test'],
    ['CAA', 'example.test', ['0 issue "letsencrypt.org"'], '0 issue "letsencrypt.org"'],
  ])('resolves %s records and matches the expected value', async (recordType, hostname, answers, expected) => {
    const result = await check({ hostname, recordType, expected });
    expect(result).toMatchObject({ ok: true, data: { answers: expect.arrayContaining(answers) } });
    expect(result.data?.answers).toHaveLength(answers.length);
    expect(result.message).toBe(`${recordType} ${answers.join(', ')}`);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('matches the short forms of MX, SRV and CAA answers', async () => {
    expect(await check({ hostname: 'example.test', recordType: 'MX', expected: 'mail.example.test' })).toMatchObject({
      ok: true,
    });
    expect(
      await check({ hostname: '_minecraft._tcp.example.test', recordType: 'SRV', expected: 'mc.example.test.' }),
    ).toMatchObject({ ok: true });
    expect(await check({ hostname: 'example.test', recordType: 'CAA', expected: 'letsencrypt.org' })).toMatchObject({
      ok: true,
    });
    expect(
      await check({ hostname: 'example.test', recordType: 'CAA', expected: 'issue letsencrypt.org' }),
    ).toMatchObject({ ok: true });
  });

  it('is up without an expected value when there are answers', async () => {
    expect(await check({ hostname: 'example.test' })).toMatchObject({ ok: true, message: 'A 192.0.2.10, 192.0.2.11' });
  });

  it('fails when the expected value is not among the answers, listing them', async () => {
    expect(await check({ hostname: 'example.test', expected: '192.0.2.99' })).toEqual({
      ok: false,
      error: 'expected "192.0.2.99" is not among the answers: 192.0.2.10, 192.0.2.11',
      data: { answers: ['192.0.2.10', '192.0.2.11'] },
    });
    // TXT is data, not a name: case matters.
    expect(await check({ hostname: 'example.test', recordType: 'TXT', expected: 'V=SPF1 -ALL' })).toMatchObject({
      ok: false,
    });
  });

  it('says when the name does not exist', async () => {
    expect(await check({ hostname: 'missing.example.test' })).toEqual({
      ok: false,
      error: 'missing.example.test does not exist (NXDOMAIN)',
    });
  });

  it('says when the name has no records of the type', async () => {
    expect(await check({ hostname: 'empty.example.test', recordType: 'MX' })).toEqual({
      ok: false,
      error: 'no MX records for empty.example.test',
    });
  });

  it('says when the resolver fails', async () => {
    expect(await check({ hostname: 'broken.example.test' })).toEqual({
      ok: false,
      error: 'the resolver failed to answer (SERVFAIL)',
    });
  });

  it('times out on a resolver that never answers', async () => {
    const started = performance.now();
    expect(await check({ hostname: 'example.test', resolver: silent.address }, 400)).toEqual({
      ok: false,
      error: 'timed out after 0.4 s',
    });
    expect(performance.now() - started).toBeLessThan(1200);
    expect(silent.queries.length).toBeGreaterThan(0);
    expect(await run({ hostname: 'example.test', resolver: silent.address }, 400)).toEqual({
      ok: false,
      error: 'timed out after 0.4 s',
    });
  });

  it('returns at once for an already aborted signal', async () => {
    const result = await probeDirectly(
      dns,
      { hostname: 'example.test', resolver: silent.address },
      1000,
      AbortSignal.abort(),
    );
    expect(result).toEqual({ ok: false, error: 'timed out after 1 s' });
  });

  it('asks the configured resolver on its port', async () => {
    const before = server.queries.length;
    await check({ hostname: 'www.example.test', recordType: 'CNAME' });
    expect(server.queries.slice(before)).toContainEqual({ name: 'www.example.test', type: 'CNAME' });
  });

  it('runs through runProbe, config validation included', async () => {
    expect(await run({ hostname: 'example.test', recordType: 'AAAA' })).toMatchObject({
      ok: true,
      data: { answers: ['2001:db8::1'] },
    });
    expect(await run({ hostname: 'example.test', recordType: 'PTR' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^invalid config/),
    });
  });

  it('leaves no socket or timer open', async () => {
    const before = activeResources();
    await check({ hostname: 'example.test', recordType: 'MX' });
    await check({ hostname: 'missing.example.test' });
    await check({ hostname: 'example.test', resolver: silent.address }, 300);
    expect(await leakedResources(before)).toEqual({});
  });
});

describe('normalize', () => {
  it('lowercases names, drops trailing dots, quotes and extra spaces', () => {
    expect(normalize('MX', '  10   Mail.Example.COM. ')).toBe('10 mail.example.com');
    expect(normalize('CAA', '0 issue "LetsEncrypt.org"')).toBe('0 issue letsencrypt.org');
    expect(normalize('AAAA', '2001:0DB8:0000::0001')).toBe('2001:db8::1');
    expect(normalize('TXT', '"Keep Case"')).toBe('Keep Case');
  });
});
