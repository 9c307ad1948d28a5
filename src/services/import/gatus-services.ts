// Gatus's endpoints of other kinds than http, tcp, tls and dns, by their url scheme, as Warden's own monitor types:
// icmp:// as ping, ssh:// as ssh, starttls:// as smtp with STARTTLS, grpc(s):// as a gRPC health check, ws(s):// as
// websocket and udp:// as udp; their conditions as that type's expectations.
import { isObject } from './gatus-alerting.js';
import { mapConditions } from './gatus-conditions.js';
import type { GatusProbe } from './gatus-endpoints.js';

type ServiceType = 'ping' | 'ssh' | 'smtp' | 'grpc' | 'websocket' | 'udp';

/** Each scheme's Warden type, and the port Gatus uses when the URL names none (undefined: it must name one). */
export const SERVICE_SCHEMES = new Map<string, { type: ServiceType; port?: number }>([
  ['icmp', { type: 'ping' }],
  ['ssh', { type: 'ssh', port: 22 }],
  ['starttls', { type: 'smtp' }],
  ['grpc', { type: 'grpc', port: 80 }],
  ['grpcs', { type: 'grpc', port: 443 }],
  ['ws', { type: 'websocket' }],
  ['wss', { type: 'websocket' }],
  ['udp', { type: 'udp' }],
]);

export function serviceProbe(
  endpoint: Record<string, unknown>,
  scheme: string,
  url: string,
  address: { host: string; port?: number | string },
): GatusProbe | { skip: string } {
  const kind = SERVICE_SCHEMES.get(scheme);
  if (kind === undefined) return { skip: `Warden has no monitor for ${scheme}://` };
  const port = address.port ?? kind.port;
  if (typeof port === 'string')
    return { skip: `its port ${port} is an environment reference; Warden needs the number` };
  const needsPort = kind.type === 'smtp' || kind.type === 'udp';
  if (needsPort && port === undefined) return { skip: `${url} names no port` };
  const conditions = Array.isArray(endpoint.conditions) ? endpoint.conditions : [];
  const mapped = mapConditions(kind.type, conditions);
  const notes = [...mapped.notes];
  const body = typeof endpoint.body === 'string' && endpoint.body !== '' ? endpoint.body : undefined;
  const insecure = isObject(endpoint.client) && endpoint.client.insecure === true;
  const config = serviceConfig(kind.type, { scheme, url, host: address.host, port, body, insecure }, notes);
  return {
    type: kind.type,
    config: { ...config, ...mapped.config },
    ...(mapped.degradedLatencyMs === undefined ? {} : { degradedLatencyMs: mapped.degradedLatencyMs }),
    host: address.host,
    notes: [...notes, ...sshNotes(endpoint, kind.type)],
  };
}

interface Target {
  scheme: string;
  url: string;
  host: string;
  port: number | undefined;
  body: string | undefined;
  insecure: boolean;
}

function serviceConfig(type: ServiceType, t: Target, notes: string[]): Record<string, unknown> {
  const port = t.port === undefined ? {} : { port: t.port };
  const unsent = (what: string) => notes.push(`the body is not sent: Warden's ${type} monitor ${what}`);
  switch (type) {
    case 'ping':
      return { host: t.host };
    case 'ssh':
      if (t.body !== undefined) unsent('reads the server identification only');
      return { host: t.host, ...port };
    case 'smtp':
      if (t.body !== undefined) unsent('speaks SMTP up to STARTTLS only');
      return { host: t.host, ...port, security: 'starttls' };
    case 'grpc':
      if (t.body !== undefined) unsent('asks the standard health service');
      return { host: t.host, ...port, ...(t.scheme === 'grpcs' ? { tls: true } : {}), ...insecure(t) };
    case 'websocket':
      return { url: t.url, ...(t.body !== undefined ? { message: t.body } : {}), ...insecure(t) };
    case 'udp':
      notes.push('Warden waits for an answer datagram; Gatus only needed the datagram sent');
      return { host: t.host, ...port, payload: t.body ?? '' };
  }
}

const insecure = (t: Target) => (t.insecure ? { ignoreTls: true } : {});

function sshNotes(endpoint: Record<string, unknown>, type: ServiceType): string[] {
  if (type !== 'ssh' || !isObject(endpoint.ssh)) return [];
  const { username, password } = endpoint.ssh;
  return username || password
    ? ['Gatus logged in over SSH; Warden reads the server identification and does not log in']
    : [];
}
