// The probe contract suite's fixtures for databases, brokers and network services (postgres to docker): an example
// config, a server that never answers it, and a fake echoing its secrets.
import type { MonitorType } from '../../src/domain/monitor-type.js';
import { startAmqpFake } from '../fakes/amqp-server.js';
import { startTcpBlackHole, startUdpBlackHole } from '../fakes/black-holes.js';
import { startEchoServer } from '../fakes/echo-server.js';
import { startMongoFake } from '../fakes/mongodb-server.js';
import { startMqttFake } from '../fakes/mqtt-broker.js';
import { startMysqlFake } from '../fakes/mysql-server.js';
import { startNatsFake } from '../fakes/nats-server.js';
import { startPostgresFake } from '../fakes/postgres-server.js';
import { startWsFake } from '../fakes/ws-server.js';

import { gameServer, PANEL_CA, type ProbeFixture, SECRET } from './probes-fixture-parts.js';

export const SERVICE_FIXTURES = {
  postgres: {
    blackHole: startTcpBlackHole,
    // Its client library loads on the first check: loaded here, it does not eat a short test timeout.
    warmUp: async () => void (await import('pg')),
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
    warmUp: async () => void (await import('mysql2/promise')),
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
} satisfies Partial<Record<MonitorType, ProbeFixture>>;
