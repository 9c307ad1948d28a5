// TXT lookups against a real (fake) DNS server: records joined, missing names as no records, failures and silence as errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDnsServer, startDnsFake, startSilentDnsFake } from '../../test/fakes/dns-server.js';
import { createTxtLookup } from './txt-lookup.js';

describe('TXT lookups for custom domains', () => {
  let dns: FakeDnsServer;
  let silent: FakeDnsServer;
  beforeAll(async () => {
    dns = await startDnsFake({
      '_warden.ok.test': { TXT: [{ data: ['wdv_first', 'half'] }, { data: 'v=spf1 -all' }] },
      '_warden.empty.test': { A: [{ address: '192.0.2.1' }] },
      '_warden.broken.test': { rcode: 2 },
    });
    silent = await startSilentDnsFake();
  });
  afterAll(async () => {
    await Promise.all([dns.close(), silent.close()]);
  });

  it('answers each record with its strings joined, and no records for a missing name or type', async () => {
    const lookup = createTxtLookup({ servers: [dns.address] });
    expect(await lookup('_warden.ok.test')).toEqual({ records: ['wdv_firsthalf', 'v=spf1 -all'] });
    expect(await lookup('_warden.empty.test')).toEqual({ records: [] });
    expect(await lookup('_warden.nowhere.test')).toEqual({ records: [] });
  });

  it('reports a server failure, and gives up on a silent server within its budget', async () => {
    expect(await createTxtLookup({ servers: [dns.address] })('_warden.broken.test')).toEqual({
      error: expect.stringMatching(/SERVFAIL/i),
    });
    const started = performance.now();
    expect(await createTxtLookup({ servers: [silent.address], timeoutMs: 300 })('_warden.ok.test')).toEqual({
      error: 'no answer within 300 ms',
    });
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
