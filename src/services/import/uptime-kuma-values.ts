// Uptime Kuma's values as warden.yaml writes them: keys and tags made from names, numbers held to Warden's bounds, local
// times in a zone as instants, and secrets as ${ENV} placeholders.
import { MONITOR_TAG } from '../../domain/monitor.js';
import { fromFloating, isTimeZone } from '../../domain/zoned-time.js';
import { envName as keyedEnvName } from './keys.js';

export { keyAllocator, keyFromName as slugOf } from './keys.js';

/** A Kuma tag ("env" with value "prod") as a Warden tag ("env-prod"); undefined when nothing of it fits. */
export function tagOf(name: string, value: string | null): string | undefined {
  const text = value === null || value.trim() === '' ? name : `${name}-${value}`;
  const tag = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return MONITOR_TAG.test(tag) ? tag : undefined;
}

/** `value` held to [min, max], and whether it had to move. */
export function within(value: number, min: number, max: number): { value: number; moved: boolean } {
  const held = Math.min(max, Math.max(min, Math.round(value)));
  return { value: held, moved: held !== Math.round(value) };
}

/** The name of the environment variable a secret is read from: KUMA_ plus the words, upper-case. */
export const envName = (...words: string[]) => keyedEnvName('KUMA', ...words);

export const placeholder = (name: string) => `\${${name}}`;

/** Header names whose values are credentials: written as ${ENV} placeholders, never copied into warden.yaml. */
export function isCredentialHeader(name: string): boolean {
  return /authorization|cookie|token|secret|api[-_]?key|password|auth/i.test(name);
}

/**
 * A webhook URL whose secret part (Teams' `sig` query parameter, else the last path segment: Discord's and Slack's
 * token) is an ${ENV} placeholder; the rest stays, so the file still says where it posts. Undefined for a URL that is
 * not http(s) or has no such part.
 */
export function urlWithSecret(
  url: string,
  env: string,
): { url: string; removed: 'sig' | 'token' | 'path' } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const param = (['sig', 'token'] as const).find((name) => parsed.searchParams.has(name));
  if (param !== undefined) {
    const query = [...parsed.searchParams].map(
      ([k, v]) => `${encodeURIComponent(k)}=${k === param ? placeholder(env) : encodeURIComponent(v)}`,
    );
    return { url: `${parsed.origin}${parsed.pathname}?${query.join('&')}`, removed: param };
  }
  const segments = parsed.pathname.split('/');
  while (segments.length > 0 && segments.at(-1) === '') segments.pop();
  if (segments.length < 2) return undefined;
  segments[segments.length - 1] = placeholder(env);
  return { url: `${parsed.origin}${segments.join('/')}${parsed.search}`, removed: 'path' };
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/**
 * The instant a Kuma local time ("2026-05-01 10:00") names in an IANA zone; undefined when the text or the zone is not
 * one. Kuma keeps a maintenance window's dates in the window's own zone.
 */
export function zonedInstant(local: string, zone: string): number | undefined {
  const m = LOCAL_TIME.exec(local.trim());
  if (!m || !isTimeZone(zone)) return undefined;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  return fromFloating(wall, zone);
}

/** A text cut to `max` characters (with "…"), trimmed; undefined when empty. */
export function textOf(value: string | null | undefined, max: number): string | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return undefined;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The ISO form warden.yaml shows an instant in. */
export const isoTime = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** `{ key: value }`, or nothing when the value is absent (a field left out of an entry). */
export function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** A zod error's first three issues, each with its path, as one line of a note. */
export function issues(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length > 0 ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}
