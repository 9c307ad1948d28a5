// Gatus's endpoint conditions ("[STATUS] == 200", "[BODY].status == UP") as a Warden monitor's expectations; each
// condition Warden cannot express exactly is named with what became of it, never dropped silently.
import { isValidJsonPath } from '../../probes/codecs/json-path.js';
import { fileText } from './file-text.js';
import { goDurationMs } from './gatus-values.js';

/** The monitor a condition is judged for: what each kind of Warden monitor can check. */
export type ConditionTarget =
  | 'http'
  | 'https'
  | 'dns'
  | 'tcp'
  | 'tls'
  | 'ping'
  | 'ssh'
  | 'smtp'
  | 'grpc'
  | 'websocket'
  | 'udp';

/** The monitors that see a certificate and warn of its expiry (certExpiryDays). */
const CERTIFICATE_TARGETS: readonly ConditionTarget[] = ['https', 'tls', 'smtp'];

export interface ConditionMapping {
  /**
   * Fields of the monitor's `config`: expectedStatus, keyword, notKeyword, jsonPath, jsonExpected, certExpiryDays,
   * domainExpiryDays, expected.
   */
  config: Record<string, unknown>;
  /** From [RESPONSE_TIME] < N: slower checks show the monitor as degraded. */
  degradedLatencyMs?: number;
  /** Conditions kept in part or not at all: `condition "…": what happened`. */
  notes: string[];
}

type Operator = '==' | '!=' | '<=' | '>=' | '>' | '<';
/** Gatus looks for the operators in this order, each surrounded by spaces. */
const OPERATORS: readonly Operator[] = ['==', '!=', '<=', '>=', '>', '<'];
const MIRROR: Record<Operator, Operator> = { '==': '==', '!=': '!=', '<=': '>=', '>=': '<=', '>': '<', '<': '>' };
const STATUS_MIN = 100;
const STATUS_MAX = 599;
const CERT_DAYS_MAX = 365;
const DAY_MS = 86_400_000;

interface Condition {
  text: string;
  left: string;
  op: Operator;
  right: string;
}

export function mapConditions(target: ConditionTarget, conditions: readonly unknown[]): ConditionMapping {
  const mapping: ConditionMapping = { config: {}, notes: [] };
  const note = (c: { text: string }, what: string) => mapping.notes.push(`condition "${c.text}" ${what}`);
  const isHttp = target === 'http' || target === 'https';
  // Gatus passes any status unless a condition says otherwise; Warden's default is 200-299.
  const allowed = new Set<number>(range(STATUS_MIN, STATUS_MAX));
  let statusSeen = false;
  for (const raw of conditions) {
    const c = typeof raw === 'string' ? parseCondition(raw) : undefined;
    if (c === undefined) {
      note({ text: fileText(raw) }, 'not imported: not a condition Warden understands');
      continue;
    }
    const placeholder = c.left.replace(/^(\[BODY\]).+$/, '$1.path');
    switch (placeholder) {
      case '[CONNECTED]':
        // Every Warden check fails when it cannot connect.
        if (!(c.op === '==' && c.right === 'true')) note(c, 'not imported: Warden fails a check that cannot connect');
        break;
      case '[STATUS]':
        if (!isHttp) note(c, `not imported: a ${target} monitor has no status code`);
        else if (applyStatus(allowed, c)) statusSeen = true;
        else note(c, 'not imported: Warden checks the status against a list of codes and ranges only');
        break;
      case '[RESPONSE_TIME]': {
        const ms = Number(c.right);
        if ((c.op === '<' || c.op === '<=') && Number.isInteger(ms) && ms >= 1) {
          mapping.degradedLatencyMs = Math.min(mapping.degradedLatencyMs ?? ms, ms);
          note(c, `approximated: a slower check shows the monitor degraded (degradedLatencyMs: ${ms}), not down`);
        } else note(c, 'not imported: Warden only marks slow checks as degraded (degradedLatencyMs)');
        break;
      }
      case '[CERTIFICATE_EXPIRATION]':
        if (!CERTIFICATE_TARGETS.includes(target)) note(c, `not imported: a ${target} monitor sees no certificate`);
        else note(c, applyExpiry(mapping, c, 'certificate', 'certExpiryDays'));
        break;
      case '[DOMAIN_EXPIRATION]':
        if (!isHttp)
          note(c, `not imported: a ${target} monitor does not look the domain up; add a domain-expiry monitor`);
        else note(c, applyExpiry(mapping, c, 'domain', 'domainExpiryDays'));
        break;
      case '[DNS_RCODE]':
        if (!(target === 'dns' && c.op === '==' && c.right === 'NOERROR'))
          note(
            c,
            target === 'dns'
              ? 'not imported: a Warden dns check passes only on an answer (NOERROR)'
              : `not imported: a ${target} monitor makes no DNS query`,
          );
        break;
      case '[BODY]': {
        const what = applyBody(mapping, target, c);
        if (what !== undefined) note(c, what);
        break;
      }
      case '[BODY].path': {
        const what = isHttp ? applyJsonValue(mapping, c) : `not imported: a ${target} monitor reads no JSON body`;
        if (what !== undefined) note(c, what);
        break;
      }
      default:
        if (/^has\(\[BODY\].+\)$/.test(c.left) && c.op === '==' && c.right === 'true' && isHttp) {
          const path = jsonPathOf(c.left.slice(4, -1));
          if (path !== undefined && mapping.config.jsonPath === undefined) mapping.config.jsonPath = path;
          else note(c, 'not imported: a Warden http monitor checks one JSON path');
        } else note(c, `not imported: Warden has no equivalent of ${c.left}`);
    }
  }
  if (isHttp) mapping.config.expectedStatus = statusSeen ? expectedStatus(allowed) : `${STATUS_MIN}-${STATUS_MAX}`;
  return mapping;
}

/** "a OP b" with the placeholder on the left ("200 == [STATUS]" is turned around), or undefined. */
export function parseCondition(text: string): Condition | undefined {
  for (const op of OPERATORS) {
    const parts = text.split(` ${op} `);
    if (parts.length === 1) continue;
    if (parts.length !== 2) return undefined;
    const [left = '', right = ''] = parts.map((part) => part.trim());
    const isPlaceholder = (side: string) => /^(\[|len\(|has\()/.test(side);
    if (!isPlaceholder(left) && isPlaceholder(right)) return { text, left: right, op: MIRROR[op], right: left };
    return { text, left, op, right };
  }
  return undefined;
}

/** Narrows the allowed status codes by one condition; false when it cannot be read as codes. */
/** `[CERTIFICATE_EXPIRATION] > 240h` and `[DOMAIN_EXPIRATION] > 720h`: days of warning before it expires. */
function applyExpiry(
  mapping: ConditionMapping,
  c: Condition,
  what: 'certificate' | 'domain',
  field: 'certExpiryDays' | 'domainExpiryDays',
): string {
  const ms = goDurationMs(c.right) ?? (/^\d+$/.test(c.right) ? Number(c.right) : undefined);
  if ((c.op !== '>' && c.op !== '>=') || ms === undefined)
    return `not imported: Warden warns a number of days before a ${what} expires (${field})`;
  const days = Math.min(CERT_DAYS_MAX, Math.max(1, Math.ceil(ms / DAY_MS)));
  mapping.config[field] = days;
  return `approximated: the monitor shows degraded, not down, when the ${what} expires within ${days} day${days === 1 ? '' : 's'} (${field}); an expired one fails`;
}

function applyStatus(allowed: Set<number>, c: Condition): boolean {
  const list = functionArgs(c.right, 'any');
  const pattern = functionArgs(c.right, 'pat')?.[0];
  let matches: (code: number) => boolean;
  if (list !== undefined) {
    if (!(c.op === '==' || c.op === '!=') || list.some((code) => !/^\d{3}$/.test(code))) return false;
    matches = (code) => list.includes(String(code));
  } else if (pattern !== undefined) {
    if (!(c.op === '==' || c.op === '!=') || !/^[\d*?]+$/.test(pattern)) return false;
    const regex = new RegExp(`^${pattern.replaceAll('*', '\\d*').replaceAll('?', '\\d')}$`);
    matches = (code) => regex.test(String(code));
  } else {
    if (!/^\d+$/.test(c.right)) return false;
    const value = Number(c.right);
    const compare: Record<Operator, (code: number) => boolean> = {
      '==': (code) => code === value,
      '!=': (code) => code === value,
      '<': (code) => code < value,
      '<=': (code) => code <= value,
      '>': (code) => code > value,
      '>=': (code) => code >= value,
    };
    matches = compare[c.op];
  }
  const keep = c.op === '!=' ? (code: number) => !matches(code) : matches;
  for (const code of [...allowed]) if (!keep(code)) allowed.delete(code);
  return true;
}

/** The allowed codes as expectedStatus: 200, or "200-299", or "200, 301-302". */
function expectedStatus(allowed: Set<number>): number | string {
  const ranges: [number, number][] = [];
  for (const code of range(STATUS_MIN, STATUS_MAX)) {
    if (!allowed.has(code)) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === code - 1) last[1] = code;
    else ranges.push([code, code]);
  }
  // No code passes: the condition can never hold; Warden's default stays and the check will say so.
  if (ranges.length === 0) return '200-299';
  if (ranges.length === 1 && ranges[0]?.[0] === ranges[0]?.[1]) return ranges[0]?.[0] as number;
  return ranges.map(([low, high]) => (low === high ? String(low) : `${low}-${high}`)).join(', ');
}

/** [BODY] compared as a whole: text the body must (not) contain, or the DNS answer expected; what became of it when not exact. */
function applyBody(mapping: ConditionMapping, target: ConditionTarget, c: Condition): string | undefined {
  const pattern = functionArgs(c.right, 'pat')?.[0];
  if (target === 'dns') {
    if (
      c.op !== '==' ||
      pattern !== undefined ||
      functionArgs(c.right, 'any') !== undefined ||
      mapping.config.expected !== undefined
    )
      return 'not imported: a Warden dns monitor expects one value among the answers';
    mapping.config.expected = c.right;
    return undefined;
  }
  if (target === 'websocket' || target === 'udp') return applyAnswer(mapping, target, c, pattern);
  if (target !== 'http' && target !== 'https') return `not imported: a Warden ${target} monitor reads no response`;
  const field = c.op === '==' ? 'keyword' : c.op === '!=' ? 'notKeyword' : undefined;
  if (field === undefined || mapping.config[field] !== undefined)
    return `not imported: a Warden http monitor checks one ${field ?? 'keyword'}`;
  if (pattern === undefined) {
    if (functionArgs(c.right, 'any') !== undefined || field === 'notKeyword' || c.right === '')
      return 'not imported: Warden checks text the body contains';
    mapping.config.keyword = c.right;
    return `approximated: the body must contain "${c.right}" (keyword), not equal it`;
  }
  const inner = pattern.replace(/^\*/, '').replace(/\*$/, '');
  if (inner === '' || /[*?]/.test(inner)) return 'not imported: Warden checks one piece of text the body contains';
  mapping.config[field] = inner;
  const anywhere = pattern.startsWith('*') && pattern.endsWith('*');
  return anywhere
    ? undefined
    : `approximated: the body must ${field === 'keyword' ? '' : 'not '}contain "${inner}" anywhere (${field})`;
}

/** [BODY] of a WebSocket or UDP endpoint (the first answer): text it must contain, Warden's `expect`. */
function applyAnswer(
  mapping: ConditionMapping,
  target: 'websocket' | 'udp',
  c: Condition,
  pattern: string | undefined,
): string | undefined {
  const text = pattern === undefined ? c.right : pattern.replace(/^\*/, '').replace(/\*$/, '');
  if (
    c.op !== '==' ||
    mapping.config.expect !== undefined ||
    text === '' ||
    /^any\(/.test(c.right) ||
    /[*?]/.test(text)
  )
    return `not imported: a Warden ${target} monitor checks one piece of text the answer contains`;
  mapping.config.expect = text;
  return pattern?.startsWith('*') && pattern.endsWith('*')
    ? undefined
    : `approximated: the answer must contain "${text}" anywhere (expect)`;
}

/** [BODY].path == value: Warden's jsonPath and jsonExpected (compared as text, as Gatus does); why not, when not. */
function applyJsonValue(mapping: ConditionMapping, c: Condition): string | undefined {
  const path = jsonPathOf(c.left);
  if (path === undefined) return 'not imported: Warden cannot read this JSON path';
  if (c.op !== '==' || /^(any|pat|len|has)\(/.test(c.right) || c.right.startsWith('['))
    return 'not imported: Warden checks that a JSON value equals one value';
  if (
    mapping.config.jsonPath !== undefined &&
    !(mapping.config.jsonPath === path && mapping.config.jsonExpected === undefined)
  )
    return 'not imported: a Warden http monitor checks one JSON path';
  mapping.config.jsonPath = path;
  mapping.config.jsonExpected = c.right;
  return undefined;
}

/** "[BODY].data[0].id" → "$.data[0].id"; undefined when Warden's JSON paths cannot say it. */
function jsonPathOf(placeholder: string): string | undefined {
  const rest = placeholder.slice('[BODY]'.length);
  const path = rest.startsWith('.') || rest.startsWith('[') ? `$${rest}` : undefined;
  return path !== undefined && isValidJsonPath(path) ? path : undefined;
}

/** The arguments of `name(a, b)`, or undefined when the value is not that function. */
function functionArgs(value: string, name: 'any' | 'pat'): string[] | undefined {
  if (!value.startsWith(`${name}(`) || !value.endsWith(')')) return undefined;
  const inner = value.slice(name.length + 1, -1);
  return name === 'pat' ? [inner] : inner.split(',').map((part) => part.trim());
}

function range(low: number, high: number): number[] {
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}
