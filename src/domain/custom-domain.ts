// Custom domains: which names a page may claim, and how a claim made through the API is proven (a DNS TXT record).
import { DAY_MS } from './check.js';
import { WardenError } from './errors.js';

export const CUSTOM_DOMAIN_LIMITS = {
  /** The TXT lookup of a verification (both tries, all servers) gives up after this long. */
  lookupTimeoutMs: 5_000,
  /** Verified API domains are looked up again this often; a record gone makes the domain unverified. */
  recheckEveryMs: DAY_MS,
  /** TXT strings quoted back in an error answer, at most, and characters of each. */
  shownRecords: 5,
  shownRecordChars: 100,
} as const;

/** The name whose TXT record proves a claim: `_warden.<domain>`. */
export function verificationRecordName(domain: string): string {
  return `_warden.${domain}`;
}

/** A host name as Warden compares it: lower case, without a port or a trailing dot, IPv6 without brackets. */
export function normalizeHost(host: string): string {
  let name = host.trim().toLowerCase();
  if (name.startsWith('[')) name = name.slice(1, name.indexOf(']') === -1 ? undefined : name.indexOf(']'));
  else name = name.replace(/:\d*$/, '');
  return name.replace(/\.$/, '');
}

/** The host of a base URL (WARDEN_BASE_URL), normalized; undefined when there is none. */
export function baseHostOf(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  try {
    return normalizeHost(new URL(baseUrl).hostname);
  } catch {
    return undefined;
  }
}

/** A last label that is a number (decimal or 0x hex) makes browsers read the whole name as an IPv4 address. */
const NUMERIC_LAST_LABEL = /(^|\.)(\d+|0x[0-9a-f]*)$/;

/**
 * Why a name can never be a page's custom domain, whoever asks: `localhost` and its subdomains, and IP literals (v4,
 * v6, and the numeric forms browsers read as IPv4); undefined when it may be claimed.
 */
export function reservedDomainProblem(domain: string): string | undefined {
  const name = normalizeHost(domain);
  if (name === 'localhost' || name.endsWith('.localhost')) return 'localhost cannot be a custom domain';
  if (name.includes(':') || NUMERIC_LAST_LABEL.test(name))
    return 'an IP address cannot be a custom domain; use a host name';
  return undefined;
}

/** Why a name cannot be claimed on this server (reserved, or the service's own host); undefined when it can. */
export function domainClaimProblem(domain: string, baseUrl: string | undefined): string | undefined {
  const reserved = reservedDomainProblem(domain);
  if (reserved) return reserved;
  const own = baseHostOf(baseUrl);
  if (own !== undefined && normalizeHost(domain) === own)
    return `${own} is this service's own host and cannot be a page's custom domain`;
  return undefined;
}

/**
 * What a TXT lookup found: the records (each one's strings joined; none when the name does not exist or has no TXT),
 * or why DNS gave no answer (a timeout, SERVFAIL, REFUSED).
 */
export type TxtAnswer = { records: string[] } | { error: string };

/** Looks up the TXT records of a name; never throws, gives up after CUSTOM_DOMAIN_LIMITS.lookupTimeoutMs. */
export type TxtLookup = (name: string) => Promise<TxtAnswer>;

/**
 * The outcome of looking for the token: `verified` when a record holds it exactly, `missing` when the name has no
 * such record (removed, never published, another value), `unreachable` when DNS did not answer (nothing is concluded).
 */
export function verificationOutcome(answer: TxtAnswer, token: string): 'verified' | 'missing' | 'unreachable' {
  if ('error' in answer) return 'unreachable';
  return answer.records.some((record) => record.trim() === token) ? 'verified' : 'missing';
}

/** What the lookup found, in words, for an error answer and the log. */
export function describeTxtAnswer(name: string, answer: TxtAnswer): string {
  if ('error' in answer) return `looking up TXT ${name} failed: ${answer.error}`;
  if (answer.records.length === 0) return `${name} has no TXT record`;
  const { shownRecords, shownRecordChars } = CUSTOM_DOMAIN_LIMITS;
  const shown = answer.records
    .slice(0, shownRecords)
    .map((record) => JSON.stringify(record.slice(0, shownRecordChars)));
  const more = answer.records.length > shownRecords ? ` and ${answer.records.length - shownRecords} more` : '';
  return `TXT ${name} holds ${shown.join(', ')}${more}, not the page's token`;
}

/** The verify call found no record holding the token (409, problem type `domain-not-verified`). */
export class DomainNotVerifiedError extends WardenError {
  readonly status = 409;
  readonly title = 'Domain not verified';
  readonly code = 'domain-not-verified';
}
