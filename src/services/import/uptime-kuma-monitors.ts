// One Uptime Kuma monitor as a warden.yaml monitor: its type's columns as a Warden type's config, its schedule within
// Warden's bounds, and a note for everything that did not carry over exactly (docs/import.md, "Uptime Kuma").
import { MONITOR_LIMITS } from '../../domain/limits.js';
import { DNS_RECORD_TYPES } from '../../probes/dns.js';
import type { KumaDockerHostRow, KumaMonitorRow } from '../../store/index.js';
import { httpConfig } from './uptime-kuma-http.js';
import { grpcConfig, smtpConfig, websocketConfig } from './uptime-kuma-protocols.js';
import {
  dockerConfig,
  mongodbConfig,
  mqttConfig,
  pingConfig,
  rabbitmqConfig,
  redisConfig,
  sqlConfig,
  type Typed,
} from './uptime-kuma-services.js';
import { textOf, within } from './uptime-kuma-values.js';

/** A GameDig game as GameDig 5 knows it: its current id and the protocol it speaks. */
export interface GamedigGame {
  id: string;
  protocol: string;
  /** GameDig queries another port than the game's (a port_query or port_query_offset). */
  queryPortDiffers: boolean;
  /** The port GameDig asks when given none. */
  defaultQueryPort: number | undefined;
}

/** Finds a GameDig game by its GameDig 5 id or its GameDig 4 id (Kuma 1.23 stored those). */
export type GamedigLookup = (id: string) => GamedigGame | undefined;

export type MonitorMapping = { entry: Record<string, unknown>; notes: string[]; onRelay: boolean } | { skip: string };

/** Kuma types Warden has no monitor for, with what to say. */
const UNSUPPORTED_TABLE: Record<string, string> = {
  'real-browser': 'Warden has no browser-rendering monitor; an http monitor with a keyword is the nearest',
  'kafka-producer': 'Warden has no Kafka monitor',
  sqlserver: 'Warden has no SQL Server monitor; a tcp monitor on its port is the nearest',
  oracledb: 'Warden has no Oracle monitor; a tcp monitor on its port is the nearest',
  radius: 'Warden has no RADIUS monitor',
  'tailscale-ping': 'Warden has no Tailscale monitor; a ping monitor run by a relay inside the tailnet is the nearest',
  snmp: 'Warden has no SNMP monitor',
  ntp: 'Warden has no NTP monitor',
  'sip-options': 'Warden has no SIP monitor',
  'system-service': 'Warden has no system service monitor; a heartbeat monitor pushed by the host is the nearest',
  pm2: 'Warden has no PM2 monitor; a heartbeat monitor pushed by the host is the nearest',
  globalping: 'Warden has no Globalping monitor; a relay runs checks from another place',
};
/** A Map: the types looked up come from the file. */
const UNSUPPORTED = new Map(Object.entries(UNSUPPORTED_TABLE));

export function kumaMonitorEntry(
  row: KumaMonitorRow,
  key: string,
  tags: string[],
  games: GamedigLookup,
  relayKey: string,
  dockerHosts: readonly KumaDockerHostRow[] = [],
): MonitorMapping {
  const unsupported = UNSUPPORTED.get(row.type);
  if (unsupported !== undefined) return { skip: unsupported };
  if (row.upside_down) return { skip: 'upside-down mode (up when the check fails) has no Warden equivalent' };
  const notes: string[] = [];
  const typed = typeConfig(row, key, { games, dockerHosts }, notes);
  if ('skip' in typed) return typed;
  const entry: Record<string, unknown> = { key, name: textOf(row.name, 200) ?? key, type: typed.type };
  if (typed.type === 'heartbeat') {
    entry.runOn = 'push';
  } else {
    if (typed.onRelay) Object.assign(entry, { runOn: 'relay', relay: relayKey });
    Object.assign(entry, schedule(row, notes));
  }
  if (!row.active) entry.enabled = false;
  if (tags.length > 0) entry.tags = tags.slice(0, MONITOR_LIMITS.tags);
  if (tags.length > MONITOR_LIMITS.tags) notes.push(`only its first ${MONITOR_LIMITS.tags} tags are kept`);
  entry.config = typed.config;
  if ((row.resend_interval ?? 0) > 0)
    notes.push(
      `Kuma repeated its down notification every ${row.resend_interval === 1 ? 'check' : `${row.resend_interval} checks`}; Warden reminds per channel (rules.remindEveryMin)`,
    );
  return { entry, notes, onRelay: typed.onRelay };
}

interface Lookups {
  games: GamedigLookup;
  dockerHosts: readonly KumaDockerHostRow[];
}

function typeConfig(row: KumaMonitorRow, key: string, lookups: Lookups, notes: string[]): Typed {
  switch (row.type) {
    case 'http':
    case 'keyword':
    case 'json-query':
      return httpConfig(row, key, notes);
    case 'ping':
      return pingConfig(row, notes);
    case 'postgres':
    case 'mysql':
      return sqlConfig(row, key, notes);
    case 'mongodb':
      return mongodbConfig(row, key, notes);
    case 'redis':
      return redisConfig(row, key, notes);
    case 'mqtt':
      return mqttConfig(row, key, notes);
    case 'rabbitmq':
      return rabbitmqConfig(row, key, notes);
    case 'docker':
      return dockerConfig(row, lookups.dockerHosts, notes);
    case 'websocket-upgrade':
      return websocketConfig(row, notes);
    case 'grpc-keyword':
      return grpcConfig(row, notes);
    case 'smtp':
      return smtpConfig(row, notes);
    case 'port':
      return tcpConfig(row, notes);
    case 'dns':
      return dnsConfig(row, notes);
    case 'push':
      return pushConfig(row, notes);
    case 'steam':
      return steamConfig(row, notes);
    case 'gamedig':
      return gamedigConfig(row, lookups.games, notes);
    default:
      return { skip: `Warden has no "${row.type}" monitor` };
  }
}

/** Interval, timeout and retries within Warden's bounds; Kuma's timeout 0 meant 80 % of the interval. */
function schedule(row: KumaMonitorRow, notes: string[]): Record<string, number> {
  const L = MONITOR_LIMITS;
  const interval = within(row.interval ?? L.intervalSec.default, L.intervalSec.min, L.intervalSec.max);
  if (interval.moved)
    notes.push(
      `checked every ${row.interval} s in Kuma; Warden's interval is ${L.intervalSec.min} to ${L.intervalSec.max} s: ${interval.value} s`,
    );
  const timeoutSec =
    row.timeout !== null && row.timeout > 0 ? row.timeout : (row.interval ?? L.intervalSec.default) * 0.8;
  const timeout = within(timeoutSec * 1000, L.timeoutMs.min, L.timeoutMs.max);
  if (timeout.moved)
    notes.push(
      `timeout ${timeoutSec} s is outside Warden's ${L.timeoutMs.min} to ${L.timeoutMs.max} ms: ${timeout.value} ms`,
    );
  const retries = within(row.maxretries ?? 0, L.retries.min, L.retries.max);
  if (retries.moved) notes.push(`${row.maxretries} retries in Kuma; Warden allows at most ${L.retries.max}`);
  if (retries.value > 0 && row.retry_interval !== null && row.retry_interval > 0 && row.retry_interval !== row.interval)
    notes.push(`Kuma re-checked every ${row.retry_interval} s while retrying; Warden keeps the monitor's interval`);
  return { intervalSec: interval.value, timeoutMs: timeout.value, retries: retries.value };
}

function tcpConfig(row: KumaMonitorRow, notes: string[]): Typed {
  if (!row.hostname || row.port === null) return { skip: 'it has no host or port' };
  if (row.smtp_security && row.smtp_security !== 'nostarttls')
    notes.push(
      `Kuma also checked the port's TLS (${row.smtp_security}); Warden's tcp monitor only connects (a tls monitor checks certificates)`,
    );
  if (row.expected_tls_alert && row.expected_tls_alert !== 'none')
    notes.push('Kuma expected a TLS alert on connect; Warden only connects');
  return { type: 'tcp', config: { host: row.hostname.trim(), port: row.port }, onRelay: false };
}

function dnsConfig(row: KumaMonitorRow, notes: string[]): Typed {
  if (!row.hostname) return { skip: 'it has no host name' };
  const recordType = (row.dns_resolve_type ?? 'A').toUpperCase();
  if (!(DNS_RECORD_TYPES as readonly string[]).includes(recordType))
    return { skip: `Warden's dns monitor does not ask for ${recordType} records` };
  const config: Record<string, unknown> = { hostname: row.hostname.trim(), recordType };
  const servers = (row.dns_resolve_server ?? '')
    .replace(/\s/g, '')
    .split(',')
    .filter((s) => s !== '');
  const server = servers[0];
  if (server !== undefined) {
    const port = row.port !== null && row.port !== 53 ? row.port : undefined;
    const address = server.includes(':') ? `[${server}]` : server;
    config.resolver = port === undefined ? server : `${address}:${port}`;
  }
  if (servers.length > 1) notes.push(`Kuma asked ${servers.length} resolvers; Warden asks the first (${server})`);
  const expected = dnsExpected(row.conditions);
  if (expected.value !== undefined) config.expected = expected.value;
  if (expected.note) notes.push(expected.note);
  return { type: 'dns', config, onRelay: false };
}

/** A 2.x condition list that is one "record equals X" is Warden's `expected`; anything else is noted. */
function dnsExpected(conditions: string | null): { value?: string; note?: string } {
  let list: unknown;
  try {
    list = JSON.parse(conditions ?? '[]');
  } catch {
    return { note: 'its conditions are not valid JSON and were left out' };
  }
  if (!Array.isArray(list) || list.length === 0) return {};
  const [only] = list as { type?: string; variable?: string; operator?: string; value?: unknown }[];
  if (
    list.length === 1 &&
    only?.type === 'expression' &&
    only.variable === 'record' &&
    only.operator === 'equals' &&
    typeof only.value === 'string'
  )
    return { value: only.value };
  return {
    note: 'Warden checks that one value is among the answers: its conditions other than one "record equals" were left out',
  };
}

function pushConfig(row: KumaMonitorRow, notes: string[]): Typed {
  const grace = within(row.interval ?? 60, 10, 7 * 24 * 3600);
  if (grace.moved)
    notes.push(`Kuma waited ${row.interval} s for a push; Warden's grace is 10 s to 7 days: ${grace.value} s`);
  notes.push(
    "its push URL changes: Kuma's token cannot be kept; `warden config apply` prints the new token; point the sender at /api/push/TOKEN (Kuma's ping= becomes latency=)",
  );
  return { type: 'heartbeat', config: { graceSec: grace.value }, onRelay: false };
}

function steamConfig(row: KumaMonitorRow, notes: string[]): Typed {
  if (!row.hostname) return { skip: 'it has no host' };
  notes.push(
    "Kuma looked the server up in Steam's server list (with a Steam API key); Warden asks the server itself (A2S) on its query port",
  );
  return {
    type: 'source',
    config: { host: row.hostname.trim(), ...(row.port !== null ? { port: row.port } : {}) },
    onRelay: false,
  };
}

/** Games whose protocol Warden speaks natively run on the edge as its own types; any other stays GameDig, on a relay. */
const NATIVE: Record<string, string> = { valve: 'source', fivem: 'fivem' };

function gamedigConfig(row: KumaMonitorRow, games: GamedigLookup, notes: string[]): Typed {
  if (!row.hostname) return { skip: 'it has no host' };
  if (!row.game) return { skip: 'it names no game' };
  const game = games(row.game);
  const host = row.hostname.trim();
  const portNumber = row.port ?? game?.defaultQueryPort;
  const port = portNumber !== undefined ? { port: portNumber } : {};
  if (row.gamedig_token) notes.push('its GameDig token was left out (Warden does not send one)');
  const native =
    game === undefined
      ? undefined
      : game.id === 'minecraft'
        ? 'minecraft-java'
        : game.id === 'mbe'
          ? 'minecraft-bedrock'
          : NATIVE[game.protocol];
  if (game !== undefined && native !== undefined) {
    if (row.gamedig_given_port_only === false && game.queryPortDiffers)
      notes.push(
        `GameDig also tried ${game.id}'s usual query port; Warden's ${native} monitor asks port ${row.port ?? 'default'} only`,
      );
    return { type: native, config: { host, ...port }, onRelay: false };
  }
  if (game === undefined) notes.push(`GameDig 5 does not know the game id "${row.game}": check it on the relay`);
  notes.push('Warden runs GameDig monitors on a relay: start the relay in this file (`warden relay`, docs/relay.md)');
  return { type: 'gamedig', config: { game: game?.id ?? row.game, host, ...port }, onRelay: true };
}
