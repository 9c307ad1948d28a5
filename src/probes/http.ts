// HTTP(S) endpoints and websites: status, body keywords, JSON values, redirects and certificate expiry.
import { z } from 'zod';
import { expiryVerdict } from '../net/certificates.js';
import { formatBytes, HTTP_GET_LIMITS, type HttpGetResponse, httpGet } from '../net/http-get.js';
import { isValidJsonPath, jsonValueText, readJsonPath } from './codecs/json-path.js';
import { domainExpiryDays, urlDomainVerdict } from './domain-expiry.js';
import { certExpiryDays, httpUrl } from './fields.js';
import { defineProbe, type ProbeResult } from './probe.js';

const STATUS_LIST = /^\s*\d{3}(\s*-\s*\d{3})?(\s*,\s*\d{3}(\s*-\s*\d{3})?)*\s*$/;
const STATUS_MESSAGE = 'expected a status code, a list of codes, or ranges such as "200-299"';

const statusCode = z.number({ error: STATUS_MESSAGE }).int({ error: STATUS_MESSAGE }).min(100).max(599);
const statusText = z.string().regex(STATUS_LIST, { error: STATUS_MESSAGE });

export const httpConfig = z
  .object({
    url: httpUrl(),
    method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']).default('GET'),
    expectedStatus: z
      .union(
        [
          statusCode,
          statusText,
          z
            .array(z.union([statusCode, statusText]))
            .min(1)
            .max(20),
        ],
        {
          error: STATUS_MESSAGE,
        },
      )
      .default('200-299'),
    keyword: z.string().min(1).max(1024).optional().describe('Text the body must contain.'),
    notKeyword: z.string().min(1).max(1024).optional().describe('Text the body must not contain.'),
    jsonPath: z
      .string()
      .min(1)
      .max(256)
      .refine(isValidJsonPath, { error: 'expected a path such as "$.status" or "data.items[0].state"' })
      .optional()
      .describe('A path into the JSON body such as "$.status" or "data.items[0].state".'),
    jsonExpected: z
      .union([z.string(), z.number(), z.boolean(), z.null()])
      .optional()
      .describe('The value jsonPath must hold (compared as text).'),
    headers: z.record(z.string().min(1).max(256), z.string().max(4096)).optional(),
    body: z
      .string()
      .max(64 * 1024)
      .optional(),
    maxRedirects: z.number().int().min(0).max(10).default(5),
    ignoreTls: z
      .boolean()
      .default(false)
      .describe('Accept invalid or self-signed certificates; an expired one still fails the check.'),
    certExpiryDays: certExpiryDays(),
    domainExpiryDays: domainExpiryDays()
      .optional()
      .describe(
        "Also ask the domain's registry (RDAP) when the URL's domain expires: degraded with fewer days left than this, down once expired; 0 never warns.",
      ),
  })
  .strict()
  .refine((c) => c.jsonExpected === undefined || c.jsonPath !== undefined, {
    path: ['jsonExpected'],
    error: 'jsonExpected needs a jsonPath',
  });

export const http = defineProbe({
  id: 'http',
  label: 'HTTP / website',
  config: httpConfig,
  secrets: ['headers'],
  targets: ['url', 'ignoreTls'],
  probe: async (config, ctx) => {
    const started = performance.now();
    const expected = parseExpectedStatus(config.expectedStatus);
    const result = await httpGet({
      url: config.url,
      method: config.method,
      headers: config.headers,
      body: config.body,
      maxRedirects: config.maxRedirects,
      // A status-only check stops at the headers: no body bytes are worth reading.
      readBody: config.keyword !== undefined || config.notKeyword !== undefined || config.jsonPath !== undefined,
      ignoreTls: config.ignoreTls,
      ...ctx,
    });
    if (!result.ok) return { ok: false, error: result.error };
    const response = result.response;
    const data: Record<string, unknown> = { statusCode: response.status, redirects: response.redirects };
    if (response.tls) {
      data.tlsDaysRemaining = response.tls.daysRemaining;
      data.tlsValidTo = response.tls.validTo;
    }
    if (!statusMatches(expected, response.status))
      return { ok: false, error: `expected status ${formatExpectedStatus(expected)}, got ${response.status}`, data };
    const failure = checkBody(config, response, data);
    if (failure) return { ok: false, error: failure, data };
    const notes = [`HTTP ${response.status}`];
    let degraded = false;
    if (response.tls) {
      // Without ignoreTls an expired certificate never gets this far (the handshake refuses it); with it, it fails here.
      const verdict = expiryVerdict(response.tls, config.certExpiryDays);
      if ('failure' in verdict) return { ok: false, error: verdict.failure, data };
      degraded = 'warning' in verdict;
      notes.push('warning' in verdict ? verdict.warning : verdict.note);
    }
    if (config.domainExpiryDays !== undefined) {
      const budgetMs = ctx.timeoutMs - (performance.now() - started) - DOMAIN_CHECK_MARGIN_MS;
      const verdict = await urlDomainVerdict(config.url, config.domainExpiryDays, ctx, budgetMs, data);
      if (verdict && 'failure' in verdict) return { ok: false, error: verdict.failure, data };
      if (verdict && 'warning' in verdict) {
        degraded = true;
        notes.push(verdict.warning);
      }
    }
    const passed: ProbeResult = { ok: true, latencyMs: response.latencyMs, message: notes.join(', '), data };
    return degraded ? { ...passed, degraded } : passed;
  },
});

/** Kept back from the timeout when the domain's registry is asked after the request, so the check ends in time. */
const DOMAIN_CHECK_MARGIN_MS = 100;

/** Inclusive ranges of acceptable status codes. */
export type StatusRange = readonly [low: number, high: number];

/** Reads expectedStatus in any of its forms: 200, "200-299", "200, 301-302", or an array mixing them. */
export function parseExpectedStatus(input: number | string | ReadonlyArray<number | string>): StatusRange[] {
  const items = Array.isArray(input) ? input : [input];
  const ranges: StatusRange[] = [];
  for (const item of items) {
    if (typeof item === 'number') {
      ranges.push([item, item]);
      continue;
    }
    for (const part of String(item).split(',')) {
      const [first = '', second = first] = part.split('-');
      const low = Number(first.trim());
      const high = Number(second.trim());
      // The schema already rejects malformed text; a stray empty part is simply skipped.
      if (first.trim() === '' || !Number.isInteger(low) || !Number.isInteger(high)) continue;
      ranges.push(low <= high ? [low, high] : [high, low]);
    }
  }
  return ranges;
}

export function statusMatches(ranges: readonly StatusRange[], status: number): boolean {
  return ranges.some(([low, high]) => status >= low && status <= high);
}

export function formatExpectedStatus(ranges: readonly StatusRange[]): string {
  return ranges.map(([low, high]) => (low === high ? String(low) : `${low}-${high}`)).join(', ');
}

/** Longest piece of config or body text quoted back in an error. */
const QUOTE_CHARS = 100;

function checkBody(
  config: z.output<typeof httpConfig>,
  response: HttpGetResponse,
  data: Record<string, unknown>,
): string | undefined {
  const text = config.keyword !== undefined || config.notKeyword !== undefined ? response.body.toString('utf8') : '';
  const cap = formatBytes(HTTP_GET_LIMITS.bodyBytes);
  if (config.keyword !== undefined && !text.includes(config.keyword)) {
    return response.truncated
      ? `keyword ${quote(config.keyword)} not found in the first ${cap} of the body (reading stops there)`
      : `keyword ${quote(config.keyword)} not found`;
  }
  // Past the cap the forbidden keyword cannot be ruled out; the first bytes are what a visitor sees first.
  if (config.notKeyword !== undefined && text.includes(config.notKeyword))
    return `keyword ${quote(config.notKeyword)} found, which must not be there`;
  if (config.jsonPath === undefined) return undefined;
  if (response.truncated) return `the body is larger than ${cap}, too large to read as JSON`;
  let document: unknown;
  try {
    document = JSON.parse(response.body.toString('utf8'));
  } catch {
    return 'the body is not valid JSON';
  }
  const lookup = readJsonPath(document, config.jsonPath);
  if (!lookup.found) return `nothing at ${quote(config.jsonPath)} in the JSON body`;
  const actual = jsonValueText(lookup.value);
  data.jsonValue = actual.slice(0, 200);
  if (config.jsonExpected === undefined) return undefined;
  const wanted = jsonValueText(config.jsonExpected);
  return actual === wanted ? undefined : `${quote(config.jsonPath)} is ${quote(actual)}, expected ${quote(wanted)}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text);
}
