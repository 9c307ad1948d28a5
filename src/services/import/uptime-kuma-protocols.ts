// Uptime Kuma's protocol monitors as Warden's: websocket-upgrade (2.x) as websocket, grpc-keyword as a gRPC health
// check, and smtp (2.x) as smtp with the same TLS mode.
import type { KumaMonitorRow } from '../../store/index.js';
import type { Typed } from './uptime-kuma-services.js';
import { textOf } from './uptime-kuma-values.js';

const HEALTH_SERVICE = 'grpc.health.v1.Health';

export function websocketConfig(row: KumaMonitorRow, notes: string[]): Typed {
  const url = row.url?.trim() ?? '';
  if (!/^wss?:\/\//i.test(url)) return { skip: 'its URL is not a ws:// or wss:// URL' };
  const subprotocol = textOf(row.ws_subprotocol, 100);
  if (subprotocol) notes.push(`Kuma asked for the subprotocol ${subprotocol}; Warden asks for none`);
  if (row.ws_ignore_sec_websocket_accept_header)
    notes.push("Kuma ignored the server's Sec-WebSocket-Accept header; Warden checks it, as the protocol requires");
  return { type: 'websocket', config: { url, ...(row.ignore_tls ? { ignoreTls: true } : {}) }, onRelay: false };
}

/**
 * Kuma calls any method with a JSON body and looks for a keyword in the answer; Warden asks the standard health
 * service. A call of grpc.health.v1.Health/Check carries over exactly (its service from the body); any other becomes a
 * health check of the server, noted.
 */
export function grpcConfig(row: KumaMonitorRow, notes: string[]): Typed {
  const address = /^(?:grpcs?:\/\/)?(\[[0-9a-f:.]+\]|[^:/[\]]+):(\d{1,5})\/?$/i.exec(row.grpc_url?.trim() ?? '');
  if (!address) return { skip: 'its gRPC URL is not host:port' };
  const config: Record<string, unknown> = { host: address[1], port: Number(address[2]) };
  if (row.grpc_enable_tls) config.tls = true;
  const service = textOf(row.grpc_service_name, 200) ?? '';
  const method = textOf(row.grpc_method, 100) ?? '';
  const keyword = textOf(row.keyword, 100);
  if (service === HEALTH_SERVICE && method.toLowerCase() === 'check') {
    const asked = healthService(row.grpc_body);
    if (asked) config.service = asked;
    if (keyword && !/SERVING/.test(keyword))
      notes.push(`Warden checks for SERVING: Kuma's keyword "${keyword}" was left out`);
  } else {
    notes.push(
      `Kuma called ${service || '(no service)'}/${method || '(no method)'}${keyword ? ` and looked for "${keyword}"` : ''}; Warden asks the server's standard health service (grpc.health.v1.Health/Check), which it must offer`,
    );
  }
  if (row.grpc_metadata && row.grpc_metadata.trim() !== '' && row.grpc_metadata.trim() !== '{}')
    notes.push('its gRPC metadata is not sent (Warden sends none)');
  return { type: 'grpc', config, onRelay: false };
}

function healthService(body: string | null): string | undefined {
  try {
    const parsed = JSON.parse(body ?? '{}') as { service?: unknown };
    return typeof parsed.service === 'string' && parsed.service !== '' ? parsed.service : undefined;
  } catch {
    return undefined;
  }
}

/** Kuma's smtp_security, as nodemailer reads it: secure is TLS from the first byte, nostarttls never upgrades. */
const SMTP_SECURITY = new Map<string, 'tls' | 'starttls' | 'none'>([
  ['secure', 'tls'],
  ['starttls', 'starttls'],
  ['nostarttls', 'none'],
]);

export function smtpConfig(row: KumaMonitorRow, notes: string[]): Typed {
  if (!row.hostname) return { skip: 'it has no host' };
  const security = SMTP_SECURITY.get(row.smtp_security ?? '');
  if (security === undefined) notes.push('Kuma used STARTTLS when the server offered it; Warden requires it');
  const config: Record<string, unknown> = { host: row.hostname.trim(), security: security ?? 'starttls' };
  if (row.port !== null) config.port = row.port;
  if (row.expiry_notification === false) config.certExpiryDays = 0;
  return { type: 'smtp', config, onRelay: false };
}
