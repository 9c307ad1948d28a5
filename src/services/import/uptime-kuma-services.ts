// Uptime Kuma's database, broker and host monitors as Warden's own types: ping, postgres, mysql, mongodb, redis, mqtt,
// docker, and rabbitmq (Kuma asks RabbitMQ's management API, which an http monitor asks the same way). A connection
// string's password becomes an ${ENV} placeholder; everything else of it is written out.

import { dockerEndpoint } from '../../probes/docker.js';
import type { KumaDockerHostRow, KumaMonitorRow } from '../../store/index.js';
import { envName, placeholder, within } from './uptime-kuma-values.js';

export type Typed = { type: string; config: Record<string, unknown>; onRelay: boolean } | { skip: string };

const typed = (type: string, config: Record<string, unknown>): Typed => ({ type, config, onRelay: false });

/** A database URL's parts: scheme://[user[:password]@]host[:port][,host…][/path][?query]. */
interface DatabaseUrl {
  scheme: string;
  user?: string;
  hasPassword: boolean;
  host: string;
  port?: number;
  otherHosts: number;
  path: string;
  query: URLSearchParams;
}

const DATABASE_URL = /^([a-z][a-z0-9+.-]*):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#]+)(\/[^?#]*)?(?:\?([^#]*))?$/i;

/** Longer than any real connection string: a longer one is not read (nor matched against DATABASE_URL). */
const URL_CHARS_MAX = 4096;

function parseDatabaseUrl(text: string | null): DatabaseUrl | undefined {
  if (text === null || text.length > URL_CHARS_MAX) return undefined;
  const m = DATABASE_URL.exec(text.trim());
  if (!m) return undefined;
  const [first, ...others] = (m[4] as string).split(',');
  const address = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(first ?? '');
  if (!address) return undefined;
  const decode = (part: string | undefined) => {
    try {
      return part === undefined || part === '' ? undefined : decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  return {
    scheme: (m[1] as string).toLowerCase(),
    ...(decode(m[2]) !== undefined ? { user: decode(m[2]) } : {}),
    hasPassword: m[3] !== undefined && m[3] !== '',
    host: address[1] as string,
    ...(address[2] !== undefined ? { port: Number(address[2]) } : {}),
    otherHosts: others.length,
    path: decode((m[5] ?? '').replace(/^\//, '')) ?? '',
    query: new URLSearchParams(m[6] ?? ''),
  };
}

/** The password of a connection string as a placeholder, with the note that says which variable to set. */
function passwordField(key: string, url: DatabaseUrl, notes: string[]): Record<string, string> {
  if (!url.hasPassword) return {};
  const env = envName(key, 'password');
  notes.push(`its password is read from \${${env}}: set it before warden config apply`);
  return { password: placeholder(env) };
}

const UNREADABLE = 'its connection string is not a URL Warden reads (scheme://user:password@host:port/database)';

export function sqlConfig(row: KumaMonitorRow, key: string, notes: string[]): Typed {
  const url = parseDatabaseUrl(row.database_connection_string);
  const postgres = row.type === 'postgres';
  if (url === undefined || !(postgres ? ['postgres', 'postgresql'] : ['mysql', 'mariadb']).includes(url.scheme))
    return { skip: UNREADABLE };
  const config: Record<string, unknown> = { host: url.host, ...(url.port ? { port: url.port } : {}) };
  if (url.user !== undefined) config.user = url.user;
  Object.assign(config, passwordField(key, url, notes));
  if (url.path !== '') config.database = url.path;
  const sslmode = url.query.get('sslmode') ?? (url.query.get('ssl') === 'true' ? 'require' : undefined);
  if (sslmode !== undefined && sslmode !== 'disable' && sslmode !== 'prefer' && sslmode !== 'allow') {
    // node-postgres (Kuma's driver) checks the certificate for every mode but no-verify.
    config.tls = true;
    if (sslmode === 'no-verify') config.ignoreTls = true;
  }
  const query = row.database_query?.trim();
  if (query) config.query = query;
  return typed(row.type, config);
}

export function mongodbConfig(row: KumaMonitorRow, key: string, notes: string[]): Typed {
  const url = parseDatabaseUrl(row.database_connection_string);
  if (url?.scheme === 'mongodb+srv')
    return { skip: "Warden's mongodb monitor connects to one server: a mongodb+srv:// seed list has no equivalent" };
  if (url === undefined || url.scheme !== 'mongodb') return { skip: UNREADABLE };
  if (url.otherHosts > 0) notes.push(`Kuma's replica set named ${url.otherHosts + 1} servers; Warden asks the first`);
  const config: Record<string, unknown> = { host: url.host, ...(url.port ? { port: url.port } : {}) };
  if (url.user !== undefined) config.username = url.user;
  Object.assign(config, passwordField(key, url, notes));
  const authSource = url.query.get('authSource');
  if (authSource) config.authSource = authSource;
  if (url.path !== '') config.database = url.path;
  if (url.query.get('tls') === 'true' || url.query.get('ssl') === 'true') config.tls = true;
  const command = row.database_query?.trim();
  if (command) {
    config.command = command;
    if (row.json_path?.trim()) config.jsonPath = row.json_path.trim().replace(/^\$\.?/, '');
    if (row.expected_value !== null && row.expected_value !== '') config.expected = row.expected_value;
  }
  return typed('mongodb', config);
}

export function redisConfig(row: KumaMonitorRow, key: string, notes: string[]): Typed {
  const url = parseDatabaseUrl(row.database_connection_string);
  if (url === undefined || (url.scheme !== 'redis' && url.scheme !== 'rediss')) return { skip: UNREADABLE };
  const config: Record<string, unknown> = { host: url.host, ...(url.port ? { port: url.port } : {}) };
  // redis://:password@host names no user: Redis before 6 (or the default user) logs in with the password alone.
  if (url.user !== undefined && url.hasPassword) config.username = url.user;
  Object.assign(config, passwordField(key, url, notes));
  if (url.scheme === 'rediss') {
    config.tls = true;
    if (row.ignore_tls) config.ignoreTls = true;
  }
  return typed('redis', config);
}

export function pingConfig(row: KumaMonitorRow, notes: string[]): Typed {
  if (!row.hostname) return { skip: 'it has no host' };
  // Kuma 1.23 sent one echo request a check; 2.x sends ping_count.
  const count = within(row.ping_count ?? 1, 1, 10);
  if (count.moved) notes.push(`Kuma sent ${row.ping_count} echo requests a check; Warden sends at most 10`);
  if (row.packet_size !== null && row.packet_size !== 56)
    notes.push(`Kuma sent ${row.packet_size}-byte echo requests; Warden sends ping's default size (56 bytes)`);
  return typed('ping', { host: row.hostname.trim(), count: count.value });
}

export function dockerConfig(row: KumaMonitorRow, hosts: readonly KumaDockerHostRow[], notes: string[]): Typed {
  if (!row.docker_container) return { skip: 'it names no container' };
  const host = hosts.find((h) => h.id === row.docker_host);
  if (host === undefined || !host.docker_daemon) return { skip: 'it names no Docker host' };
  const daemon = host.docker_daemon.trim();
  const dockerHost = host.docker_type === 'socket' && !daemon.startsWith('unix://') ? `unix://${daemon}` : daemon;
  if (dockerEndpoint(dockerHost) === undefined)
    return { skip: `its Docker host "${daemon}" is neither a unix socket nor an http(s) or tcp URL` };
  notes.push(
    `Warden asks the Docker API at ${dockerHost} from where it runs: the socket or port must be reachable there`,
  );
  if (dockerHost.startsWith('https://'))
    notes.push(
      "Kuma presented the client certificate of its data/docker-tls folder; Warden's docker monitor sends none",
    );
  return typed('docker', { dockerHost, container: row.docker_container.trim() });
}

/** A text as a /regular expression/ that matches it anywhere: Kuma's "contains". */
const containing = (text: string) => `/${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/`;

export function mqttConfig(row: KumaMonitorRow, key: string, notes: string[]): Typed {
  const address = /^(?:([a-z]+):\/\/)?([^/:]+)/i.exec(row.hostname?.trim() ?? '');
  if (!address) return { skip: 'it has no host' };
  const scheme = (address[1] ?? 'mqtt').toLowerCase();
  if (scheme === 'ws' || scheme === 'wss')
    return { skip: "Warden's mqtt monitor speaks MQTT over TCP, not over WebSocket" };
  if (scheme !== 'mqtt' && scheme !== 'mqtts') return { skip: `Warden's mqtt monitor does not speak ${scheme}://` };
  const config: Record<string, unknown> = { host: address[2], ...(row.port !== null ? { port: row.port } : {}) };
  if (scheme === 'mqtts') config.tls = true;
  if (row.mqtt_username) config.username = row.mqtt_username;
  if (row.mqtt_password) {
    const env = envName(key, 'password');
    config.password = placeholder(env);
    notes.push(`its password is read from \${${env}}: set it before warden config apply`);
  }
  const topic = row.mqtt_topic?.trim();
  if (topic) {
    config.topic = topic;
    const checkType = row.mqtt_check_type ?? 'keyword';
    if (checkType === 'keyword' && row.mqtt_success_message)
      config.expected = containing(row.mqtt_success_message).slice(0, 512);
    else if (checkType === 'json-query')
      notes.push(
        `Warden compares the message as text: Kuma's JSON query ${JSON.stringify(row.json_path ?? '')} was left out`,
      );
  }
  return typed('mqtt', config);
}

export function rabbitmqConfig(row: KumaMonitorRow, key: string, notes: string[]): Typed {
  let nodes: unknown;
  try {
    nodes = JSON.parse(row.rabbitmq_nodes ?? '[]');
  } catch {
    return { skip: 'its node list is not valid JSON' };
  }
  const urls = Array.isArray(nodes)
    ? nodes.filter((n): n is string => typeof n === 'string' && /^https?:\/\//.test(n))
    : [];
  const [first] = urls;
  if (first === undefined) return { skip: 'it names no management API URL' };
  if (urls.length > 1)
    notes.push(`Kuma asked ${urls.length} nodes until one answered; Warden asks the first (${first})`);
  const config: Record<string, unknown> = { url: `${first.replace(/\/+$/, '')}/api/health/checks/alarms/` };
  if (row.rabbitmq_username) {
    const env = envName(key, 'basic_auth');
    config.headers = { Authorization: `Basic ${placeholder(env)}` };
    notes.push(`basic auth is sent as a header: set ${env} to base64 of "${row.rabbitmq_username}:password"`);
  }
  notes.push("an http monitor on RabbitMQ's management API health check, the request Kuma sent");
  return typed('http', config);
}
