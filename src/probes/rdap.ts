// When a domain's registration expires, asked of its registry's RDAP server (RFC 7480–7484, 9082–9083) through the guarded
// HTTP client, and kept for hours: an expiry date changes once a year, and RDAP servers limit how often they are asked.
import { isIP } from 'node:net';
import { bareHost } from '../net/hosts.js';
import { formatBytes, httpGet } from '../net/http-get.js';
import type { TargetGuard } from '../net/target-guard.js';
import type { ProbeContext } from './probe.js';
import { rdapBaseUrl } from './rdap-bootstrap.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Bounds of an RDAP lookup and of what is remembered. */
export const RDAP_LIMITS = {
  /** An answer larger than this is refused (a domain object is a few KiB; registrars' can reach tens). */
  answerBytes: 256 * 1024,
  /** Registries often redirect to the registrar's RDAP server. */
  redirects: 5,
  /** How long an answer is used before the server is asked again. */
  cacheMs: 6 * HOUR_MS,
  /** … and for a domain within `soonDays` of its expiry, past it, or not found: a renewal or a fix shows within the hour. */
  soonCacheMs: HOUR_MS,
  soonDays: 30,
  /** A 429 is honoured for its Retry-After, within these bounds (15 minutes without one). */
  rateLimitedMs: { min: 60_000, fallback: 15 * 60_000, max: 6 * HOUR_MS },
  /** Answers remembered per target policy; past it the oldest go. */
  cacheEntries: 10_000,
  /** Parents of a host asked at most after a 404 (www.shop.example.co.uk → … → example.co.uk). */
  parents: 3,
  /** Longest text of a server's error repeated in a result. */
  quoteChars: 100,
} as const;

/** What a registry says of a domain. */
export interface DomainExpiry {
  /** The name the registry knows (the host itself, or the parent that was found). */
  domain: string;
  /** ISO 8601, or null when the registry publishes no expiration date. */
  expiresAt: string | null;
  /** The host of the RDAP server asked (which may have redirected to another). */
  server: string;
  /** Milliseconds the RDAP request took (the original one for a remembered answer). */
  latencyMs: number;
  /** True when the answer came from memory. */
  cached: boolean;
}

export type DomainExpiryLookup = ({ ok: true } & DomainExpiry) | { ok: false; error: string };

export interface LookupOptions {
  /** An RDAP base URL to ask instead of the one the bootstrap registry names. */
  rdapUrl?: string | undefined;
  /** After a 404, ask the parent names of the host too (for a host such as www.example.com). */
  parents?: boolean;
  now?: number;
}

type Answer = { found: Omit<DomainExpiry, 'cached'> } | { notFound: true } | { error: string };
type Remembered = { until: number; answer: Answer };

/** Answers by request URL, per target policy: an answer read under `allow` is never handed to a check under `deny`. */
const memory = new WeakMap<TargetGuard, Map<string, Remembered>>();

/** Forgets every remembered answer (tests). */
export function forgetRdapAnswers(guard: TargetGuard): void {
  memory.delete(guard);
}

/** The expiry of `name`'s registration, or why it cannot be told, in words a domain owner understands. */
export async function lookupDomainExpiry(
  name: string,
  ctx: ProbeContext,
  options: LookupOptions = {},
): Promise<DomainExpiryLookup> {
  const domain = bareHost(name).toLowerCase().replace(/\.$/, '');
  if (isIP(domain) !== 0) return { ok: false, error: `${domain} is an IP address, which has no domain registration` };
  const base = options.rdapUrl === undefined ? rdapBaseUrl(domain) : withSlash(options.rdapUrl);
  if (base === undefined)
    return {
      ok: false,
      error: `no RDAP server is known for .${domain.split('.').at(-1)} (IANA's bootstrap registry names none; set rdapUrl)`,
    };
  const candidates = options.parents ? namesUp(domain) : [domain];
  for (const candidate of candidates) {
    const answer = await ask(`${base}domain/${candidate}`, ctx, options.now ?? Date.now());
    if ('found' in answer.answer) return { ok: true, ...answer.answer.found, cached: answer.cached };
    if ('error' in answer.answer) return { ok: false, error: answer.answer.error };
  }
  return {
    ok: false,
    error: `${domain} is not registered: the RDAP server at ${new URL(base).host} does not know it (404)`,
  };
}

/** The host and its parents that could be a registered domain: at least two labels, at most RDAP_LIMITS.parents more. */
function namesUp(domain: string): string[] {
  const labels = domain.split('.');
  const names: string[] = [];
  for (let i = 0; i <= labels.length - 2 && names.length <= RDAP_LIMITS.parents; i++)
    names.push(labels.slice(i).join('.'));
  return names.length > 0 ? names : [domain];
}

async function ask(url: string, ctx: ProbeContext, now: number): Promise<{ answer: Answer; cached: boolean }> {
  let remembered = memory.get(ctx.guard);
  const hit = remembered?.get(url);
  if (hit && hit.until > now) return { answer: hit.answer, cached: true };
  const { answer, keepMs } = await query(url, ctx, now);
  if (keepMs > 0) {
    if (!remembered) {
      remembered = new Map();
      memory.set(ctx.guard, remembered);
    }
    remembered.delete(url);
    // Map order is insertion order: the first key is the oldest answer.
    if (remembered.size >= RDAP_LIMITS.cacheEntries) remembered.delete(remembered.keys().next().value as string);
    remembered.set(url, { until: now + keepMs, answer });
  }
  return { answer, cached: false };
}

/** One RDAP request, its answer, and how long it may be remembered (0: not at all, as for a network failure). */
async function query(url: string, ctx: ProbeContext, now: number): Promise<{ answer: Answer; keepMs: number }> {
  const result = await httpGet({
    ...ctx,
    url,
    headers: { accept: 'application/rdap+json, application/json;q=0.9' },
    maxRedirects: RDAP_LIMITS.redirects,
    maxBodyBytes: RDAP_LIMITS.answerBytes,
  });
  if (!result.ok) return { answer: { error: result.error }, keepMs: 0 };
  const { response } = result;
  // Named by the server asked: a redirect to a registrar's server is followed, but not told apart.
  const server = new URL(url).host;
  if (response.status === 404) return { answer: { notFound: true }, keepMs: RDAP_LIMITS.soonCacheMs };
  if (response.status === 429) {
    const waitMs = retryAfterMs(response.headers['retry-after'], now);
    return {
      answer: {
        error: `the RDAP server at ${server} limits how often it is asked (429); asking again in ${Math.ceil(waitMs / 60_000)} min`,
      },
      keepMs: waitMs,
    };
  }
  if (response.status !== 200)
    return {
      answer: { error: `the RDAP server at ${server} answered HTTP ${response.status}${errorTitle(response.body)}` },
      keepMs: 0,
    };
  if (response.truncated)
    return {
      answer: { error: `the RDAP answer from ${server} is larger than ${formatBytes(RDAP_LIMITS.answerBytes)}` },
      keepMs: 0,
    };
  let document: unknown;
  try {
    document = JSON.parse(response.body.toString('utf8'));
  } catch {
    return { answer: { error: `the RDAP answer from ${server} is not JSON` }, keepMs: 0 };
  }
  const read = readDomain(document);
  if ('error' in read) return { answer: { error: `the RDAP answer from ${server} ${read.error}` }, keepMs: 0 };
  const found = {
    domain: read.name ?? domainOf(url),
    expiresAt: read.expiresAt,
    server,
    latencyMs: response.latencyMs,
  };
  const soon = read.expiresAt === null || Date.parse(read.expiresAt) - now < RDAP_LIMITS.soonDays * DAY_MS;
  return { answer: { found }, keepMs: soon ? RDAP_LIMITS.soonCacheMs : RDAP_LIMITS.cacheMs };
}

/**
 * The domain object's name and expiration date (RFC 9083: `events`, eventAction "expiration"; "registrar expiration"
 * when the registry gives only the registrar's).
 */
export function readDomain(
  document: unknown,
): { name: string | undefined; expiresAt: string | null } | { error: string } {
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    return { error: 'is not an RDAP object' };
  const object = document as { objectClassName?: unknown; ldhName?: unknown; events?: unknown };
  if (object.objectClassName !== undefined && object.objectClassName !== 'domain')
    return {
      error: `is not a domain object (objectClassName ${JSON.stringify(String(object.objectClassName).slice(0, 40))})`,
    };
  const name =
    typeof object.ldhName === 'string' && object.ldhName.length <= 253
      ? object.ldhName.toLowerCase().replace(/\.$/, '')
      : undefined;
  const events = Array.isArray(object.events) ? (object.events as unknown[]) : [];
  const dateOf = (action: string) => {
    const event = events.find(
      (e) =>
        typeof e === 'object' &&
        e !== null &&
        String((e as { eventAction?: unknown }).eventAction).toLowerCase() === action,
    );
    return event === undefined ? undefined : (event as { eventDate?: unknown }).eventDate;
  };
  const date = dateOf('expiration') ?? dateOf('registrar expiration');
  if (date === undefined) return { name, expiresAt: null };
  const time = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  if (Number.isNaN(time))
    return { error: `gives an expiration date that is not a date: ${JSON.stringify(date).slice(0, 60)}` };
  return { name, expiresAt: new Date(time).toISOString() };
}

/** Whole days from `now` to `expiresAt`, negative once it passed. */
export function daysUntil(expiresAt: string, now = Date.now()): number {
  return Math.floor((Date.parse(expiresAt) - now) / DAY_MS);
}

function retryAfterMs(header: string | undefined, now: number): number {
  const { min, fallback, max } = RDAP_LIMITS.rateLimitedMs;
  if (header === undefined) return fallback;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isNaN(ms) ? fallback : Math.min(max, Math.max(min, ms));
}

/** The `title` of an RDAP error answer (RFC 9083, section 6), quoted after the status. */
function errorTitle(body: Buffer): string {
  try {
    const title = (JSON.parse(body.toString('utf8')) as { title?: unknown }).title;
    return typeof title === 'string' && title.trim() !== '' ? `: ${title.trim().slice(0, RDAP_LIMITS.quoteChars)}` : '';
  } catch {
    return '';
  }
}

function domainOf(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
