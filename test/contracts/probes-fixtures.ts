// The probe contract suite's fixtures: for each monitor type, an example config, a server that never answers it, and a
// fake echoing its secrets (databases, brokers and network services: probes-fixtures-services.ts).
import type { MonitorType } from '../../src/domain/monitor-type.js';
import { startStalledHandshake, startTcpBlackHole, startUdpBlackHole } from '../fakes/black-holes.js';
import { startDiscordFake, startPterodactylFake } from '../fakes/game-api-fakes.js';
import { startWebsiteFake } from '../fakes/http-fakes.js';
import { startRconServer } from '../fakes/rcon-server.js';
import { startRustWebrconServer } from '../fakes/rust-webrcon-server.js';

import { gameServer, httpBase, PANEL_CA, PATH_SECRET, type ProbeFixture, SECRET } from './probes-fixture-parts.js';
import { SERVICE_FIXTURES } from './probes-fixtures-services.js';

export { PATH_SECRET, type ProbeFixture, SECRET, type SecretEcho, type Target } from './probes-fixture-parts.js';

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
  ...SERVICE_FIXTURES,
} satisfies Record<MonitorType, ProbeFixture> as Record<string, ProbeFixture | undefined>;
