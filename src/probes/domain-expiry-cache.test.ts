// What is remembered of RDAP answers, and for how long: hours, an hour near the expiry or for a 404, a rate limit's
// Retry-After, never across target policies (against a registry's RDAP server on 127.0.0.1).
import { describe, expect, it } from 'vitest';
import { inDays } from '../../test/fakes/rdap-server.js';
import { rdapServersForEachTest } from '../../test/fakes/rdap-servers.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { lookupDomainExpiry, RDAP_LIMITS } from './rdap.js';

const HOUR_MS = 3_600_000;

const { rdap, context } = rdapServersForEachTest();

describe('what is remembered of RDAP answers', () => {
  it('keeps an answer for hours, whatever the interval, then asks again', async () => {
    rdap.registry.route('kept.test', { expiresAt: inDays(200) });
    const now = Date.now();
    const first = await lookupDomainExpiry('kept.test', context(), { rdapUrl: rdap.registry.base, now });
    const again = await lookupDomainExpiry('kept.test', context(), {
      rdapUrl: rdap.registry.base,
      now: now + RDAP_LIMITS.cacheMs - 1,
    });
    expect(first).toMatchObject({ ok: true, cached: false });
    expect(again).toMatchObject({ ok: true, cached: true, expiresAt: (first as { expiresAt: string }).expiresAt });
    expect(rdap.registry.asked('kept.test')).toBe(1);
    await lookupDomainExpiry('kept.test', context(), { rdapUrl: rdap.registry.base, now: now + RDAP_LIMITS.cacheMs });
    expect(rdap.registry.asked('kept.test')).toBe(2);
  });

  it('keeps an answer for an hour only when the domain expires soon or is not found, so a renewal shows', async () => {
    rdap.registry.route('renewing.test', { expiresAt: inDays(5) });
    const now = Date.now();
    for (const name of ['renewing.test', 'unknown.test']) {
      await lookupDomainExpiry(name, context(), { rdapUrl: rdap.registry.base, now });
      await lookupDomainExpiry(name, context(), { rdapUrl: rdap.registry.base, now: now + HOUR_MS - 1 });
      expect(rdap.registry.asked(name)).toBe(1);
      await lookupDomainExpiry(name, context(), { rdapUrl: rdap.registry.base, now: now + HOUR_MS });
      expect(rdap.registry.asked(name)).toBe(2);
    }
  });

  it('honours a rate limit’s Retry-After, and asks again at once after a failure', async () => {
    rdap.registry.route('limited.test', { status: 429, headers: { 'retry-after': '600' } });
    const now = Date.now();
    const limited = await lookupDomainExpiry('limited.test', context(), { rdapUrl: rdap.registry.base, now });
    expect(limited).toEqual({
      ok: false,
      error: `the RDAP server at 127.0.0.1:${rdap.registry.port} limits how often it is asked (429); asking again in 10 min`,
    });
    expect(
      await lookupDomainExpiry('limited.test', context(), { rdapUrl: rdap.registry.base, now: now + 599_000 }),
    ).toEqual(limited);
    expect(rdap.registry.asked('limited.test')).toBe(1);

    rdap.registry.route('flaky.test', { status: 500 });
    await lookupDomainExpiry('flaky.test', context(), { rdapUrl: rdap.registry.base, now });
    rdap.registry.route('flaky.test', { expiresAt: inDays(100) });
    expect(await lookupDomainExpiry('flaky.test', context(), { rdapUrl: rdap.registry.base, now })).toMatchObject({
      ok: true,
      cached: false,
    });
    expect(rdap.registry.asked('flaky.test')).toBe(2);
  });

  it('never hands an answer read where any target is allowed to a check under deny', async () => {
    rdap.registry.route('private.test', { expiresAt: inDays(100) });
    expect(await lookupDomainExpiry('private.test', context(), { rdapUrl: rdap.registry.base })).toMatchObject({
      ok: true,
    });
    const refused = await lookupDomainExpiry('private.test', context(PUBLIC_TARGETS_ONLY), {
      rdapUrl: rdap.registry.base,
    });
    expect(refused).toEqual({
      ok: false,
      error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address;/),
    });
  });

  it('walks up from a host to the domain the registry knows', async () => {
    rdap.registry.route('example.test', { expiresAt: inDays(150) });
    const found = await lookupDomainExpiry('www.shop.example.test', context(), {
      rdapUrl: rdap.registry.base,
      parents: true,
    });
    expect(found).toMatchObject({ ok: true, domain: 'example.test' });
    expect(rdap.registry.requests.slice(-3).map((r) => r.path)).toEqual([
      '/rdap/domain/www.shop.example.test',
      '/rdap/domain/shop.example.test',
      '/rdap/domain/example.test',
    ]);
  });
});
