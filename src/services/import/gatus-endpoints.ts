// A Gatus endpoint's kind (from its url scheme or its dns: block) as a Warden monitor type and config, its conditions
// turned into that type's expectations (http, tcp, tls and dns here; the other schemes in gatus-services.ts); kinds
// Warden lacks are skipped, with the reason.
import { DNS_RECORD_TYPES } from '../../probes/dns.js';
import { httpConfig } from '../../probes/http.js';
import { fileText } from './file-text.js';
import { isCredentialHeader, isObject } from './gatus-alerting.js';
import { type ConditionTarget, mapConditions } from './gatus-conditions.js';
import { serviceProbe } from './gatus-services.js';
import { envName, hasEnvReference } from './gatus-values.js';

export interface GatusProbe {
  type: 'http' | 'tcp' | 'tls' | 'dns' | 'ping' | 'ssh' | 'smtp' | 'grpc' | 'websocket' | 'udp';
  config: Record<string, unknown>;
  degradedLatencyMs?: number;
  /** The host the monitor reaches (or the DNS resolver), to tell whether private addresses must be allowed. */
  host?: string;
  /** What changed on the way: conditions, options, the kind itself. */
  notes: string[];
}

const HTTP_METHODS = new Set<string>(httpConfig.shape.method.unwrap().options);
/** Client options of Gatus that Warden's probes do not have. */
const UNSUPPORTED_CLIENT = [
  'dns-resolver',
  'oauth2',
  'proxy-url',
  'identity-aware-proxy',
  'tls',
  'tunnel',
  'store-cookies',
] as const;
const SKIPPED = new Map<string, string>([['sctp', 'Warden has no SCTP monitor']]);

export function gatusProbe(endpoint: Record<string, unknown>): GatusProbe | { skip: string } {
  const url = typeof endpoint.url === 'string' ? endpoint.url.trim() : '';
  const conditions = Array.isArray(endpoint.conditions) ? endpoint.conditions : [];
  if (isObject(endpoint.dns)) return dnsProbe(url, endpoint.dns, conditions);
  const scheme = /^([a-z]+):\/\//.exec(url)?.[1];
  if (scheme === 'http' || scheme === 'https') return httpProbe(endpoint, url, scheme, conditions);
  const skipped = scheme === undefined ? undefined : SKIPPED.get(scheme);
  if (skipped !== undefined) return { skip: skipped };
  const address = hostAndPort(url);
  if (scheme === undefined || address === undefined) return { skip: `"${url}" is not a URL Warden can check` };
  if (scheme !== 'tcp' && scheme !== 'tls') return serviceProbe(endpoint, scheme, url, address);
  const port = address.port;
  if (port === undefined) return { skip: `${url} names no port` };
  if (typeof port === 'string')
    return { skip: `its port ${port} is an environment reference; Warden needs the number` };
  const type = scheme === 'tls' ? 'tls' : 'tcp';
  const mapped = mapConditions(type, conditions);
  const notes = [...mapped.notes];
  if (typeof endpoint.body === 'string' && endpoint.body !== '')
    notes.push(
      `the body is not sent: Warden's ${type} monitor ${type === 'tls' ? 'judges the handshake' : 'opens the connection'} only`,
    );
  if (type === 'tls' && isObject(endpoint.client) && endpoint.client.insecure === true)
    notes.push("client.insecure not imported: Warden's tls monitor verifies the certificate (give a private CA as ca)");
  return {
    type,
    config: { host: address.host, port, ...mapped.config },
    ...latency(mapped.degradedLatencyMs),
    host: address.host,
    notes,
  };
}

function httpProbe(
  endpoint: Record<string, unknown>,
  url: string,
  scheme: 'http' | 'https',
  conditions: unknown[],
): GatusProbe {
  const mapped = mapConditions(scheme as ConditionTarget, conditions);
  const notes = [...mapped.notes];
  const config: Record<string, unknown> = { url };
  const method = typeof endpoint.method === 'string' ? endpoint.method.toUpperCase() : 'GET';
  if (HTTP_METHODS.has(method)) {
    if (method !== 'GET') config.method = method;
  } else notes.push(`method ${method} not imported: Warden sends ${[...HTTP_METHODS].join(', ')}; GET is sent`);
  const { expectedStatus, ...expectations } = mapped.config;
  config.expectedStatus = expectedStatus;
  Object.assign(config, expectations);
  const headers = httpHeaders(endpoint, notes);
  const body = httpBody(endpoint, headers, notes);
  if (Object.keys(headers).length > 0) config.headers = headers;
  if (body !== undefined) config.body = body;
  const client = isObject(endpoint.client) ? endpoint.client : {};
  if (client.insecure === true) config.ignoreTls = true;
  if (client['ignore-redirect'] === true) config.maxRedirects = 0;
  for (const option of UNSUPPORTED_CLIENT)
    if (client[option] !== undefined && client[option] !== false && client[option] !== '')
      notes.push(`client.${option} not imported: Warden's http monitor has no such option`);
  const host = hostAndPort(url)?.host;
  return { type: 'http', config, ...latency(mapped.degradedLatencyMs), ...(host ? { host } : {}), notes };
}

/** The endpoint's headers; credentials become ${ENV} placeholders rather than being copied. */
function httpHeaders(endpoint: Record<string, unknown>, notes: string[]): Record<string, string> {
  if (!isObject(endpoint.headers)) return {};
  // fromEntries: every name the file gives becomes an own key, `__proto__` included.
  return Object.fromEntries(
    Object.entries(endpoint.headers).map(([name, value]) => {
      const text = fileText(value);
      if (!isCredentialHeader(name) || hasEnvReference(text)) return [name, text];
      const variable = envName(fileText(endpoint.name), name);
      notes.push(
        `header ${name} is read from \${${variable}}: set that variable to its value before warden config apply`,
      );
      return [name, `\${${variable}}`];
    }),
  );
}

/** The body as sent: GraphQL wrapped as Gatus wraps it, its fixed [PLACEHOLDERS] filled in. */
function httpBody(
  endpoint: Record<string, unknown>,
  headers: Record<string, string>,
  notes: string[],
): string | undefined {
  if (typeof endpoint.body !== 'string' || endpoint.body === '') return undefined;
  let body = endpoint.body
    .replaceAll('[ENDPOINT_NAME]', fileText(endpoint.name))
    .replaceAll('[ENDPOINT_GROUP]', fileText(endpoint.group))
    .replaceAll('[ENDPOINT_URL]', fileText(endpoint.url));
  if (/\[(LOCAL_ADDRESS|RANDOM_STRING_\d+|CONTEXT)\]/.test(body))
    notes.push('the body holds Gatus [PLACEHOLDERS] that change per request; Warden sends them as written');
  if (endpoint.graphql === true) {
    body = JSON.stringify({ query: body });
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
      headers['Content-Type'] = 'application/json';
  }
  return body;
}

function dnsProbe(
  resolver: string,
  dns: Record<string, unknown>,
  conditions: unknown[],
): GatusProbe | { skip: string } {
  const hostname = typeof dns['query-name'] === 'string' ? dns['query-name'].replace(/\.$/, '') : '';
  const recordType = typeof dns['query-type'] === 'string' ? dns['query-type'].toUpperCase() : '';
  if (hostname === '') return { skip: 'its dns block has no query-name' };
  if (!(DNS_RECORD_TYPES as readonly string[]).includes(recordType))
    return {
      skip: `Warden's dns monitor queries ${DNS_RECORD_TYPES.join(', ')}, not ${recordType || 'an unnamed type'}`,
    };
  const mapped = mapConditions('dns', conditions);
  const config: Record<string, unknown> = { hostname, recordType, ...mapped.config };
  if (resolver !== '') config.resolver = resolver;
  return {
    type: 'dns',
    config,
    ...latency(mapped.degradedLatencyMs),
    ...(resolver ? { host: resolver.replace(/:\d+$/, '') } : {}),
    notes: mapped.notes,
  };
}

/** The host and port of `scheme://host:port/…`; a port written as ${ENV} stays text. */
function hostAndPort(url: string): { host: string; port?: number | string } | undefined {
  const match =
    /^[a-z]+:\/\/(?:[^@/]*@)?(\[[^\]]+\]|\$\{[A-Za-z_][A-Za-z0-9_]*\}|[^:/?#[\]]+)(?::(\d+|\$\{[A-Za-z_][A-Za-z0-9_]*\}))?(?:[/?#].*)?$/.exec(
      url,
    );
  if (!match?.[1]) return undefined;
  const port = match[2];
  return { host: match[1], ...(port === undefined ? {} : { port: /^\d+$/.test(port) ? Number(port) : port }) };
}

function latency(ms: number | undefined): { degradedLatencyMs?: number } {
  return ms === undefined ? {} : { degradedLatencyMs: ms };
}
