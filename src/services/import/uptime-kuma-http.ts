// Uptime Kuma's http, keyword and json-query monitors as Warden's http monitor: the request (method, body, headers
// with credentials as placeholders) and what is expected of the answer (status codes, a keyword, a JSON value).
import { isValidJsonPath } from '../../probes/codecs/json-path.js';
import type { KumaMonitorRow } from '../../store/index.js';
import { fileText } from './file-text.js';
import { envName, isCredentialHeader, placeholder, within } from './uptime-kuma-values.js';

/** Kuma's http(s) request methods Warden's http monitor also sends. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The earliest of Kuma's default domainExpiryNotifyDays (7, 14, 21). */
const KUMA_DOMAIN_EXPIRY_DAYS = 21;
const STATUS_TEXT = /^\s*\d{3}(\s*-\s*\d{3})?\s*$/;
const CONTENT_TYPES = new Map([
  ['json', 'application/json'],
  ['form', 'application/x-www-form-urlencoded'],
  ['xml', 'text/xml; charset=utf-8'],
]);

/** An http, keyword or json-query monitor as Warden's http monitor: method, status codes, body, headers, keyword. */
export function httpConfig(
  row: KumaMonitorRow,
  key: string,
  notes: string[],
): { type: 'http'; config: Record<string, unknown>; onRelay: false } | { skip: string } {
  if (!row.url) return { skip: 'it has no URL' };
  const method = (row.method ?? 'GET').toUpperCase();
  if (!METHODS.has(method)) return { skip: `Warden's http monitor does not send ${method} requests` };
  // Kuma keeps the method chosen last even when its credentials were cleared: without them, nothing is sent.
  const chosen = row.auth_method ?? (row.basic_auth_user ? 'basic' : null);
  const auth =
    (chosen === 'basic' && !row.basic_auth_user) || (chosen === 'bearer' && !row.bearer_token) || chosen === ''
      ? null
      : chosen;
  if (auth !== null && auth !== 'basic' && auth !== 'bearer')
    return { skip: `its ${auth} authentication has no Warden equivalent (http monitors send fixed headers)` };
  const config: Record<string, unknown> = { url: row.url.trim() };
  if (method !== 'GET') config.method = method;
  const expected = acceptedStatus(row.accepted_statuscodes_json);
  if (expected.length > 0 && !(expected.length === 1 && expected[0] === '200-299')) config.expectedStatus = expected;
  if (row.body && row.body.trim() !== '') config.body = row.body;
  if (row.maxredirects !== null) config.maxRedirects = within(row.maxredirects, 0, 10).value;
  if (row.ignore_tls) config.ignoreTls = true;
  // Kuma only told of an expiring certificate (when asked to); Warden shows the monitor degraded unless this is 0.
  if (row.expiry_notification === false) config.certExpiryDays = 0;
  // Kuma 2.x warns of the domain's registration expiring (its setting's days, 7, 14 and 21 unless changed).
  if (row.domain_expiry_notification === true) config.domainExpiryDays = KUMA_DOMAIN_EXPIRY_DAYS;
  const headers = httpHeaders(row, key, auth, notes);
  if (Object.keys(headers).length > 0) config.headers = headers;
  if (row.type === 'keyword' && row.keyword) {
    config[row.invert_keyword ? 'notKeyword' : 'keyword'] = row.keyword;
  } else if (row.type === 'keyword') {
    notes.push('a keyword monitor without a keyword: imported as a plain http check');
  }
  if (row.type === 'json-query') jsonExpectation(row, config, notes);
  if (row.proxy_id !== null)
    notes.push('Kuma sent it through a proxy; Warden connects directly (or from a relay placed where the proxy is)');
  if (row.cache_bust) notes.push('Kuma added a cache-busting query parameter; Warden requests the URL as it is');
  return { type: 'http', config, onRelay: false };
}

/** Kuma's accepted status codes ("200-299", "301"), as Warden reads them. */
function acceptedStatus(json: string | null): string[] {
  let list: unknown;
  try {
    list = JSON.parse(json ?? '[]');
  } catch {
    return [];
  }
  return Array.isArray(list)
    ? list.filter((s): s is string => typeof s === 'string' && STATUS_TEXT.test(s)).slice(0, 20)
    : [];
}

/** The request's headers: Kuma's own (credentials as placeholders), its basic or bearer auth, and the body's type. */
function httpHeaders(row: KumaMonitorRow, key: string, auth: string | null, notes: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  let parsed: unknown = null;
  try {
    parsed = row.headers ? JSON.parse(row.headers) : null;
  } catch {
    notes.push('its custom headers are not valid JSON and were left out');
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    for (const [name, value] of Object.entries(parsed)) {
      if (isCredentialHeader(name)) {
        const env = envName(key, 'header', name);
        headers[name] = placeholder(env);
        notes.push(`header ${name} is read from \${${env}}: set it before warden config apply`);
      } else headers[name] = fileText(value);
    }
  }
  if (auth === 'basic') {
    const env = envName(key, 'basic_auth');
    headers.Authorization = `Basic ${placeholder(env)}`;
    notes.push(`basic auth is sent as a header: set ${env} to base64 of "${row.basic_auth_user ?? ''}:password"`);
  } else if (auth === 'bearer') {
    const env = envName(key, 'bearer_token');
    headers.Authorization = `Bearer ${placeholder(env)}`;
    notes.push(`its bearer token is read from \${${env}}: set it before warden config apply`);
  }
  if (row.body && row.body.trim() !== '') {
    const type = CONTENT_TYPES.get(row.http_body_encoding ?? 'json');
    if (type !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['Content-Type'] = type;
  }
  return headers;
}

/**
 * Kuma's JSON query is a JSONata expression compared with an operator; Warden reads a plain path and compares for
 * equality. A plain path with "==" carries over exactly; otherwise the monitor checks the status and what it can.
 */
function jsonExpectation(row: KumaMonitorRow, config: Record<string, unknown>, notes: string[]): void {
  const path = row.json_path?.trim() ?? '';
  const operator = row.json_path_operator ?? '==';
  if (path === '' || !isValidJsonPath(path)) {
    notes.push(
      `its JSON query ${JSON.stringify(path)} is not a plain path Warden reads: only the status code is checked`,
    );
    return;
  }
  config.jsonPath = path;
  if (operator === '==' && row.expected_value !== null) config.jsonExpected = row.expected_value;
  else
    notes.push(
      `Warden compares JSON values for equality only: "${path} ${operator} ${row.expected_value ?? ''}" became a check that ${path} exists`,
    );
}
