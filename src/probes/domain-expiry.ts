// Domain expiry: when a domain's registration runs out, as its registry's RDAP server says; degraded `warnDays` before,
// down once it passed. Answers are remembered for hours (rdap.ts), whatever the monitor's interval.
import { isIP } from 'node:net';
import { z } from 'zod';
import { expiresIn } from '../net/certificates.js';
import { bareHost } from '../net/hosts.js';
import { host, httpUrl } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';
import { type DomainExpiry, daysUntil, lookupDomainExpiry } from './rdap.js';

/** The least time an http check must have left to ask about its domain; with less, it skips the question. */
export const DOMAIN_CHECK_MIN_MS = 300;

const DAYS_MESSAGE = 'expected a whole number of days from 0 to 365';

/** How many days before a domain's expiry a monitor shows as degraded (domain-expiry monitors, http's domainExpiryDays). */
export function domainExpiryDays(fallback?: number) {
  const days = z
    .number({ error: DAYS_MESSAGE })
    .int({ error: DAYS_MESSAGE })
    .min(0, { error: DAYS_MESSAGE })
    .max(365, { error: DAYS_MESSAGE });
  return fallback === undefined ? days : days.default(fallback);
}

export const domainExpiryConfig = z
  .object({
    domain: host()
      .refine((name) => isIP(bareHost(name)) === 0 && name.replace(/\.$/, '').includes('.'), {
        error: 'expected a registered domain name such as example.com',
      })
      .describe('The registered domain (example.com, example.co.uk), not a host inside it.'),
    warnDays: domainExpiryDays(30).describe(
      'Show the monitor as degraded when the domain expires in fewer days than this; 0 never warns.',
    ),
    rdapUrl: httpUrl()
      .optional()
      .describe(
        "An RDAP server's base URL to ask instead of the one IANA's bootstrap registry names for the domain's TLD.",
      ),
  })
  .strict();

export const domainExpiry = defineProbe({
  id: 'domain-expiry',
  label: 'Domain expiry',
  config: domainExpiryConfig,
  targets: ['domain', 'rdapUrl'],
  probe: async (config, ctx) => {
    const lookup = await lookupDomainExpiry(config.domain, ctx, { rdapUrl: config.rdapUrl });
    if (!lookup.ok) return { ok: false, error: lookup.error };
    const data = expiryData(lookup);
    if (lookup.expiresAt === null)
      return {
        ok: false,
        error: `the registry of ${lookup.domain} publishes no expiration date for it (RDAP at ${lookup.server})`,
        data,
      };
    const verdict = domainVerdict(lookup.domain, lookup.expiresAt, config.warnDays);
    if ('failure' in verdict) return { ok: false, error: verdict.failure, data };
    const result: ProbeResult = { ok: true, latencyMs: lookup.latencyMs, data };
    return 'warning' in verdict
      ? { ...result, message: verdict.warning, degraded: true }
      : { ...result, message: verdict.note };
  },
});

/** What a result records of a registration: `domain`, `domainExpiresAt`, `domainDaysRemaining`, `rdapServer`, `rdapCached`. */
export function expiryData(expiry: DomainExpiry, now = Date.now()): Record<string, unknown> {
  const data: Record<string, unknown> = {
    domain: expiry.domain,
    domainExpiresAt: expiry.expiresAt,
    rdapServer: expiry.server,
    rdapCached: expiry.cached,
  };
  if (expiry.expiresAt !== null) data.domainDaysRemaining = daysUntil(expiry.expiresAt, now);
  return data;
}

/** A failure once expired, a warning with fewer than `warnDays` days left (0 never warns), else a note. */
export function domainVerdict(
  domain: string,
  expiresAt: string,
  warnDays: number,
  now = Date.now(),
): { failure: string } | { warning: string } | { note: string } {
  const days = daysUntil(expiresAt, now);
  const date = expiresAt.slice(0, 10);
  if (days < 0) return { failure: `the domain ${domain} expired on ${date}` };
  if (days < warnDays) return { warning: `${domain} ${expiresIn(days)} (${date})` };
  return { note: `${domain} ${expiresIn(days)} (${date})` };
}

/**
 * An http monitor's `domainExpiryDays`: the registration of the URL's host (or of the parent the registry knows,
 * www.example.com → example.com), judged like a domain-expiry monitor's. Within `budgetMs`, so that a slow RDAP server
 * never makes the website look down; a lookup that fails only says why in `data.domainExpiryError`.
 */
export async function urlDomainVerdict(
  url: string,
  warnDays: number,
  ctx: ProbeContext,
  budgetMs: number,
  data: Record<string, unknown>,
): Promise<ReturnType<typeof domainVerdict> | undefined> {
  const name = bareHost(new URL(url).hostname);
  if (isIP(name) !== 0) {
    data.domainExpiryError = 'the URL names an IP address, which has no domain registration';
    return undefined;
  }
  if (budgetMs < DOMAIN_CHECK_MIN_MS) {
    data.domainExpiryError = 'no time was left in the timeout to ask the RDAP server';
    return undefined;
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  const timer = setTimeout(stop, budgetMs);
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const lookup = await lookupDomainExpiry(
      name,
      { signal: controller.signal, timeoutMs: budgetMs, guard: ctx.guard },
      { parents: true },
    );
    if (!lookup.ok) {
      data.domainExpiryError = lookup.error;
      return undefined;
    }
    Object.assign(data, expiryData(lookup));
    return lookup.expiresAt === null ? undefined : domainVerdict(lookup.domain, lookup.expiresAt, warnDays);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', stop);
  }
}
