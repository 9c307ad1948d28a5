// The probe contract suite's fixtures: for each monitor type, an example config, a server that never answers it, and a fake echoing its secrets.
import type { MonitorType } from '../../src/domain/monitor-type.js';
import { startAmqpFake } from '../fakes/amqp-server.js';
import { type BlackHole, startStalledHandshake, startTcpBlackHole, startUdpBlackHole } from '../fakes/black-holes.js';
import { startEchoServer } from '../fakes/echo-server.js';
import { startDiscordFake, startPterodactylFake } from '../fakes/game-api-fakes.js';
import { startWebsiteFake } from '../fakes/http-fakes.js';
import { startMongoFake } from '../fakes/mongodb-server.js';
import { startMqttFake } from '../fakes/mqtt-broker.js';
import { startMysqlFake } from '../fakes/mysql-server.js';
import { startNatsFake } from '../fakes/nats-server.js';
import { startPostgresFake } from '../fakes/postgres-server.js';
import { startRconServer } from '../fakes/rcon-server.js';
import { startRustWebrconServer } from '../fakes/rust-webrcon-server.js';
import { startWsFake } from '../fakes/ws-server.js';

export interface Target {
  host: string;
  port: number;
}

/** A fake that echoes a type's secrets back, and configs holding those secrets that make it do so. */
export interface SecretEcho {
  configs: Record<string, unknown>[];
  close(): Promise<void>;
}

export interface ProbeFixture {
  /** A server that takes the probe's traffic and never answers; null for a push-only type, which is never probed. */
  blackHole: (() => Promise<BlackHole>) | null;
  /** A config as a user writes it, defaults left out, aimed at `target`. */
  example(target: Target): Record<string, unknown>;
  /** More configs that must read back as stored: other modes, optional fields. */
  moreExamples?: Record<string, unknown>[];
  /** Work a first check would otherwise spend its timeout on. */
  warmUp?(): Promise<void>;
  /** Required for every type whose definition lists secrets. */
  secretEcho?(): Promise<SecretEcho>;
}

/**
 * A secret with a quote and a backslash, which JSON escapes, so that a scrubber searching JSON text for it misses it;
 * at most 32 characters, so a panel can echo it as a server state.
 */
export const SECRET = 's3cr"et\\Key-42';
/** Rust compares its password with the raw request path: this one travels unencoded. */
export const PATH_SECRET = 'R4st-Pa$$word!';

/** A private CA's certificate (a public one: no key goes with it), as a tls monitor's `ca` holds it. */
const PANEL_CA = `-----BEGIN CERTIFICATE-----
MIIBiTCCAS+gAwIBAgIJfOzmaT4UeEWNMAoGCCqGSM49BAMCMBsxGTAXBgNVBAMT
EEV4YW1wbGUgUGFuZWwgQ0EwHhcNMjYxMTI0MDY1MDI5WhcNNDYwMTAxMDAwMDAw
WjAbMRkwFwYDVQQDExBFeGFtcGxlIFBhbmVsIENBMFkwEwYHKoZIzj0CAQYIKoZI
zj0DAQcDQgAEiVp3FMMUJS63HyyHKCHFCRLHL35S9AnzjUe8X5iAxwxwiDwwMjKs
Dfec6ZjsV0KfjhA1HCZc8uYfQ07Yx8Hs16NcMFowDAYDVR0TAQH/BAIwADAOBgNV
HQ8BAf8EBAMCBaAwHQYDVR0lBBYwFAYIKwYBBQUHAwEGCCsGAQUFBwMCMBsGA1Ud
EQQUMBKCEEV4YW1wbGUgUGFuZWwgQ0EwCgYIKoZIzj0EAwIDSAAwRQIhALqIvONM
1Jz4GJygCIcEX6oEhyihvhMVe4o/c1FJNJeCAiBi0muVowNTveBjmq8Oa6za/A8+
QPOggvMmHWSJOBniLg==
-----END CERTIFICATE-----
`;

const gameServer = ({ host, port }: Target) => ({ host, port });
const httpBase = ({ host, port }: Target) => `http://${host}:${port}`;

/** Checked with `satisfies`, so a monitor type added to the registry without a fixture fails to compile here too. */
export const PROBE_FIXTURES = {
  'minecraft-java': {
    blackHole: startTcpBlackHole,
    example: (target) => ({ ...gameServer(target), minPlayers: 1 }),
    moreExamples: [{ host: 'mc.example.test' }, { host: '[::1]', port: 25570, protocolVersion: -1 }],
  },
  'minecraft-bedrock': {
    blackHole: startUdpBlackHole,
    example: (target) => ({ ...gameServer(target), minPlayers: 2 }),
    moreExamples: [{ host: 'bedrock.example.test' }],
  },
  source: {
    blackHole: startUdpBlackHole,
    example: gameServer,
    moreExamples: [{ host: 'cs.example.test', minPlayers: 0 }],
  },
  fivem: {
    blackHole: startTcpBlackHole,
    example: gameServer,
    moreExamples: [{ host: 'rp.example.test', https: true, minPlayers: 10 }],
  },
  'rust-webrcon': {
    blackHole: startTcpBlackHole,
    example: (target) => ({ ...gameServer(target), password: PATH_SECRET }),
    secretEcho: async () => {
      const info = await startRustWebrconServer({
        password: PATH_SECRET,
        info: { Hostname: PATH_SECRET, Map: PATH_SECRET },
      });
      const reply = await startRustWebrconServer({
        password: PATH_SECRET,
        reply: `Command '${PATH_SECRET}' not found`,
      });
      return {
        configs: [info, reply].map((fake) => ({ host: '127.0.0.1', port: fake.port, password: PATH_SECRET })),
        close: async () => void (await Promise.all([info.close(), reply.close()])),
      };
    },
  },
  rcon: {
    blackHole: startTcpBlackHole,
    example: (target) => ({ ...gameServer(target), password: SECRET, command: 'list', expect: '/\\d+ players/i' }),
    moreExamples: [{ host: 'rcon.example.test', password: 'x' }],
    secretEcho: async () => {
      const fake = await startRconServer({
        password: SECRET,
        commands: { status: `"rcon_password" = "${SECRET}"\nhostname: ${SECRET}\n` },
      });
      const config = { host: '127.0.0.1', port: fake.port, password: SECRET };
      return { configs: [config, { ...config, expect: 'never printed' }], close: fake.close };
    },
  },
  pterodactyl: {
    blackHole: startTcpBlackHole,
    example: (target) => ({ panelUrl: httpBase(target), serverId: 'd3aac109', apiKey: SECRET }),
    secretEcho: async () => {
      const resources = { memory_bytes: 1, cpu_absolute: 1, disk_bytes: 1 };
      const override = { object: 'stats', attributes: { current_state: SECRET, is_suspended: false, resources } };
      const panel = await startPterodactylFake({ apiKey: SECRET, servers: {}, override });
      return { configs: [{ panelUrl: panel.url, serverId: 'd3aac109', apiKey: SECRET }], close: panel.close };
    },
  },
  gamedig: {
    blackHole: startUdpBlackHole,
    example: (target) => ({ game: 'counterstrike2', ...gameServer(target) }),
    moreExamples: [{ game: 'valheim', host: 'valheim.example.test', minPlayers: 1 }],
    // GameDig loads its many protocols on first use.
    // @ts-expect-error gamedig 5 ships no type declarations.
    warmUp: async () => void (await import('gamedig')),
  },
  discord: {
    blackHole: startTcpBlackHole,
    example: (target) => ({ guildId: '111111111111111111', apiBaseUrl: `${httpBase(target)}/api/v10` }),
    moreExamples: [{ mode: 'bot', guildId: '111111111111111111', botToken: SECRET, minPlayers: 5 }],
    secretEcho: async () => {
      const guild = {
        name: SECRET,
        widgetEnabled: true,
        presenceCount: 1,
        memberCount: 2,
        instantInvite: SECRET,
        botIsMember: true,
      };
      const api = await startDiscordFake({ botToken: SECRET, guilds: { '111111111111111111': guild } });
      return {
        configs: [{ mode: 'bot', guildId: '111111111111111111', botToken: SECRET, apiBaseUrl: api.apiBaseUrl }],
        close: api.close,
      };
    },
  },
  http: {
    blackHole: startTcpBlackHole,
    example: (target) => ({ url: `${httpBase(target)}/health` }),
    moreExamples: [
      {
        url: 'https://status.example.test/api',
        method: 'POST',
        expectedStatus: [200, '300-302'],
        keyword: 'ok',
        notKeyword: 'error',
        jsonPath: '$.status',
        jsonExpected: 'up',
        headers: { authorization: `Bearer ${SECRET}` },
        body: '{}',
        maxRedirects: 0,
        ignoreTls: true,
      },
    ],
    secretEcho: async () => {
      const site = await startWebsiteFake();
      // The fake's /echo answers with the request's headers as JSON.
      const echo = { url: `${site.url}/echo`, headers: { authorization: `Bearer ${SECRET}`, 'x-api-key': SECRET } };
      return {
        configs: [
          { ...echo, jsonPath: 'headers.authorization' },
          { ...echo, jsonPath: 'headers.x-api-key', jsonExpected: 'something else' },
        ],
        close: site.close,
      };
    },
  },
  tcp: { blackHole: startStalledHandshake, example: gameServer },
  tls: {
    // Accepts and never answers the client hello: the handshake stalls until the signal or the timeout.
    blackHole: startTcpBlackHole,
    example: (target) => ({ ...gameServer(target), certExpiryDays: 30 }),
    moreExamples: [
      { host: 'mail.example.test', port: 465 },
      { host: '10.0.0.5', port: 8443, servername: 'panel.example.test', certExpiryDays: 0, ca: PANEL_CA },
    ],
  },
  dns: {
    blackHole: startUdpBlackHole,
    example: ({ host, port }) => ({ hostname: 'example.test', resolver: `${host}:${port}` }),
    moreExamples: [
      { hostname: '_minecraft._tcp.example.test', recordType: 'SRV', expected: '0 5 25565 mc.example.test' },
    ],
  },
  heartbeat: { blackHole: null, example: () => ({}), moreExamples: [{ graceSec: 300 }] },
  // TCP mode: the contract's black holes and recorder see connections; ICMP's refusal under deny is in ping.test.ts.
  ping: {
    blackHole: startStalledHandshake,
    example: (target) => ({ ...gameServer(target), mode: 'tcp', count: 2 }),
    moreExamples: [{ host: 'router.example.test' }, { host: '[2001:db8::1]', count: 10, degradedLossPercent: 20 }],
  },
  'domain-expiry': {
    blackHole: startTcpBlackHole,
    example: (target) => ({ domain: 'example.test', rdapUrl: `${httpBase(target)}/rdap/` }),
    moreExamples: [{ domain: 'example.com' }, { domain: 'example.co.uk', warnDays: 0 }],
  },
  // Databases and message brokers: each echo is a fake whose refusal quotes the password it was given.
  postgres: {
    blackHole: startTcpBlackHole,
    example: (target) => ({
      ...gameServer(target),
      user: 'monitor',
      password: SECRET,
      database: 'app',
      query: 'SELECT 1',
      expected: '1',
    }),
    moreExamples: [
      { host: 'db.example.test' },
      {
        host: '[2001:db8::5]',
        port: 6432,
        tls: true,
        ignoreTls: true,
        query: 'SELECT count(*) FROM jobs',
        expected: '/^\\d+$/',
      },
    ],
    secretEcho: async () => {
      const fake = await startPostgresFake({ password: 'other', refusal: 'password authentication failed: "%s"' });
      return { configs: [{ host: '127.0.0.1', port: fake.port, password: SECRET }], close: fake.close };
    },
  },
  // A password never crosses MySQL's wire in the clear: this fake answers a query with its text, which holds it.
  mysql: {
    blackHole: startTcpBlackHole,
    example: (target) => ({
      ...gameServer(target),
      user: 'monitor',
      password: SECRET,
      database: 'app',
      query: 'SELECT 1',
      expected: '1',
    }),
    moreExamples: [
      { host: 'db.example.test' },
      { host: 'mariadb.example.test', port: 3307, tls: true, query: 'SELECT @@version', expected: '/MariaDB/' },
    ],
    secretEcho: async () => {
      const fake = await startMysqlFake();
      const config = {
        host: '127.0.0.1',
        port: fake.port,
        password: SECRET,
        query: `SELECT '${SECRET.replace(/["\\]/g, '')}', '${SECRET}'`,
      };
      return { configs: [config, { ...config, expected: 'never' }], close: fake.close };
    },
  },
  // Redis's echo sends AUTH back as the reply to AUTH.
  redis: {
    blackHole: startTcpBlackHole,
    example: (target) => ({ ...gameServer(target), password: SECRET, command: 'GET health', expected: 'ok' }),
    moreExamples: [
      { host: 'cache.example.test' },
      { host: 'redis.example.test', port: 6380, username: 'monitor', password: 'x', tls: true, command: 'PING' },
    ],
    secretEcho: async () => {
      const echo = await startEchoServer();
      const config = { host: '127.0.0.1', port: echo.port, password: SECRET };
      return { configs: [config, { ...config, username: 'monitor' }], close: echo.close };
    },
  },
  nats: {
    blackHole: startTcpBlackHole,
    example: (target) => ({
      ...gameServer(target),
      username: 'monitor',
      password: SECRET,
      subject: 'health.api',
      payload: 'ping',
      expected: 'pong',
    }),
    moreExamples: [{ host: 'nats.example.test' }, { host: 'nats.example.test', port: 4223, token: 'x' }],
    secretEcho: async () => {
      const fake = await startNatsFake({ user: 'monitor', pass: 'other', echo: true });
      return {
        configs: [{ host: '127.0.0.1', port: fake.port, username: 'monitor', password: SECRET }],
        close: fake.close,
      };
    },
  }, // The fake broker publishes back the password of CONNECT.
  mqtt: {
    blackHole: startTcpBlackHole,
    example: (target) => ({
      ...gameServer(target),
      username: 'monitor',
      password: SECRET,
      topic: 'home/status',
      expected: 'online',
    }),
    moreExamples: [
      { host: 'broker.example.test' },
      { host: 'broker.example.test', tls: true, ignoreTls: true, topic: 'sensors/+/state' },
    ],
    secretEcho: async () => {
      const fake = await startMqttFake({ publish: 'password' });
      return {
        configs: [{ host: '127.0.0.1', port: fake.port, username: 'monitor', password: SECRET, topic: 'echo' }],
        close: fake.close,
      };
    },
  },
  amqp: {
    blackHole: startTcpBlackHole,
    example: (target) => ({
      ...gameServer(target),
      username: 'monitor',
      password: SECRET,
      vhost: 'prod',
      queue: 'jobs',
      maxMessages: 1000,
      minConsumers: 1,
    }),
    moreExamples: [{ host: 'mq.example.test' }, { host: 'mq.example.test', tls: true, queue: 'emails' }],
    secretEcho: async () => {
      const fake = await startAmqpFake({ echo: true });
      return { configs: [{ host: '127.0.0.1', port: fake.port, password: SECRET }], close: fake.close };
    },
  }, // SCRAM never sends the password: the fake's echo command answers with it.
  mongodb: {
    blackHole: startTcpBlackHole,
    example: (target) => ({
      ...gameServer(target),
      username: 'monitor',
      password: SECRET,
      command: '{"ping": 1}',
      jsonPath: 'ok',
      expected: '1',
    }),
    moreExamples: [
      { host: 'mongo.example.test' },
      {
        host: 'mongo.example.test',
        tls: true,
        database: 'app',
        command: '{"count": "jobs"}',
        jsonPath: 'n',
        expected: '/^\\d+$/',
      },
    ],
    secretEcho: async () => {
      const fake = await startMongoFake({ user: { name: 'monitor', password: SECRET } });
      const config = {
        host: '127.0.0.1',
        port: fake.port,
        username: 'monitor',
        password: SECRET,
        command: JSON.stringify({ echo: SECRET }),
      };
      return { configs: [config, { ...config, jsonPath: 'echo', expected: 'x' }], close: fake.close };
    },
  },
  // Services: SSH, UDP, mail, WebSocket, gRPC, Docker.
  ssh: {
    blackHole: startTcpBlackHole,
    example: gameServer,
    moreExamples: [{ host: 'git.example.test', expect: 'OpenSSH_9' }],
  },
  udp: {
    blackHole: startUdpBlackHole,
    example: (target) => ({ ...gameServer(target), payload: 'ping' }),
    moreExamples: [
      { host: 'ntp.example.test', port: 123, payload: '1b00 0000', encoding: 'hex', expect: '1c' },
      { host: '[::1]', port: 9, payload: '', encoding: 'base64' },
    ],
  },
  // Accepts the upgrade request and never answers it.
  websocket: {
    blackHole: startTcpBlackHole,
    example: ({ host, port }) => ({ url: `ws://${host}:${port}/live` }),
    moreExamples: [
      {
        url: 'wss://chat.example.test/socket?v=2',
        message: '{"op":"ping"}',
        expect: 'pong',
        ignoreTls: true,
        headers: { authorization: `Bearer ${SECRET}` },
      },
    ],
    secretEcho: async () => {
      // Answers with the upgrade request's headers, secrets included, as its first message.
      const fake = await startWsFake((socket, request) => socket.send(JSON.stringify(request.headers)));
      const headers = { authorization: `Bearer ${SECRET}`, 'x-api-key': SECRET };
      return {
        configs: [
          { url: fake.url, headers, expect: 'authorization' },
          { url: fake.url, headers, expect: 'never said' },
        ],
        close: fake.close,
      };
    },
  },
  // Mail: accepts and never greets.
  smtp: {
    blackHole: startTcpBlackHole,
    example: gameServer,
    moreExamples: [
      { host: 'mx.example.test', security: 'tls', certExpiryDays: 21 },
      { host: '10.0.0.25', port: 587, servername: 'mail.example.test', ca: PANEL_CA },
      { host: 'mx.example.test', security: 'none' },
    ],
  },
  imap: {
    blackHole: startTcpBlackHole,
    example: (target) => ({ ...gameServer(target), security: 'starttls' }),
    moreExamples: [{ host: 'imap.example.test', security: 'tls' }],
  },
  // Accepts and never answers the HTTP/2 preface.
  grpc: {
    blackHole: startTcpBlackHole,
    example: gameServer,
    moreExamples: [{ host: 'api.example.test', port: 443, service: 'my.package.Orders', tls: true }],
  },
  // The Engine API over TCP: an HTTP server that never answers. Its unix socket's refusal under deny is in docker.test.ts.
  docker: {
    blackHole: startTcpBlackHole,
    example: ({ host, port }) => ({ dockerHost: `tcp://${host}:${port}`, container: 'web' }),
    moreExamples: [
      { container: 'db-1' },
      { dockerHost: 'unix:///run/user/1000/docker.sock', container: '4fa6e0f0c678' },
      { dockerHost: 'https://docker.example.test:2376', container: '/proxy' },
    ],
  },
  pop3: {
    blackHole: startTcpBlackHole,
    example: (target) => ({ ...gameServer(target), security: 'none' }),
    moreExamples: [{ host: 'pop.example.test', security: 'tls', certExpiryDays: 0 }],
  },
} satisfies Record<MonitorType, ProbeFixture> as Record<string, ProbeFixture | undefined>;
