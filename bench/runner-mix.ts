// The runner bench's mixed scenario: local servers speaking each of the newer monitor types' protocols cheaply (the
// fakes of test/fakes/, in the bench's own process), a few real services of this machine, and the monitors against them.
import { runningState, startDockerEngineFake } from '../test/fakes/docker-engine.js';
import { startGreetingServer } from '../test/fakes/echo-server.js';
import { startGrpcServer } from '../test/fakes/grpc-server.js';
import { startMongoFake } from '../test/fakes/mongodb-server.js';
import { startMqttFake } from '../test/fakes/mqtt-broker.js';
import { startMysqlFake } from '../test/fakes/mysql-server.js';
import { startPostgresFake } from '../test/fakes/postgres-server.js';
import { inDays, startRdapServer } from '../test/fakes/rdap-server.js';
import { dovecotImap, dovecotPop3, startLineServer, startUdpResponder } from '../test/fakes/service-servers.js';
import { startWsFake } from '../test/fakes/ws-server.js';

/** One kind of monitor of the mix: its type and the config of its i-th monitor. */
export interface MixKind {
  type: string;
  /** Where it checks: "fake" (in this process) or the real service it asks. */
  against: string;
  config(i: number): Record<string, unknown>;
}

export interface Mix {
  kinds: MixKind[];
  /** Closes every local server. */
  close(): Promise<void>;
}

/** Real services of this machine, used by a share of the mix: cheap to connect to, and with no fake that logs in. */
const REDIS_PORT = Number(process.env.BENCH_RUNNER_REDIS_PORT ?? 6379);
const NATS_PORT = Number(process.env.BENCH_RUNNER_NATS_PORT ?? 4222);
const AMQP_PORT = Number(process.env.BENCH_RUNNER_AMQP_PORT ?? 5672);

/** Starts the local servers and says which monitors of the mix check them. */
export async function startMix(): Promise<Mix> {
  const closers: (() => Promise<void>)[] = [];
  const keep = <T extends { close(): Promise<void> }>(server: T): T => {
    closers.push(() => server.close());
    return server;
  };
  const close = async () => {
    await Promise.allSettled(closers.map((c) => c()));
  };
  try {
    const host = '127.0.0.1';
    const postgres = keep(await startPostgresFake({ password: 'bench', answer: '1' }));
    const mysql = keep(await startMysqlFake());
    const mongo = keep(await startMongoFake());
    const mqtt = keep(await startMqttFake({ returnCode: 0 }));
    const ws = keep(await startWsFake(() => {}));
    const grpc = keep(await startGrpcServer({ '': 'SERVING' }));
    const smtp = keep(
      await startLineServer({
        greeting: '220 bench.local ESMTP Postfix (Ubuntu)\r\n',
        answer: (line) => (line === 'QUIT' ? { reply: '221 2.0.0 Bye\r\n' } : undefined),
      }),
    );
    const imap = keep(await startLineServer(dovecotImap()));
    const pop3 = keep(await startLineServer(dovecotPop3()));
    const ssh = keep(await startGreetingServer('SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5\r\n'));
    const udp = keep(await startUdpResponder((datagram) => [datagram]));
    const docker = keep(
      await startDockerEngineFake([{ name: 'web', id: 'a1b2c3d4e5f6'.repeat(5).slice(0, 64), state: runningState() }], {
        tcp: true,
      }),
    );
    const rdap = keep(await startRdapServer());
    const kinds: MixKind[] = [
      {
        type: 'postgres',
        against: 'fake',
        config: () => ({ host, port: postgres.port, password: 'bench', query: 'select 1' }),
      },
      { type: 'mysql', against: 'fake', config: () => ({ host, port: mysql.port, user: 'bench' }) },
      { type: 'mongodb', against: 'fake', config: () => ({ host, port: mongo.port }) },
      { type: 'mqtt', against: 'fake', config: () => ({ host, port: mqtt.port }) },
      { type: 'websocket', against: 'fake', config: () => ({ url: ws.url }) },
      { type: 'grpc', against: 'fake', config: () => ({ host, port: grpc.port }) },
      { type: 'smtp', against: 'fake', config: () => ({ host, port: smtp.port, security: 'none' }) },
      { type: 'imap', against: 'fake', config: () => ({ host, port: imap.port, security: 'none' }) },
      { type: 'pop3', against: 'fake', config: () => ({ host, port: pop3.port, security: 'none' }) },
      { type: 'ssh', against: 'fake', config: () => ({ host, port: ssh.port, expect: 'OpenSSH' }) },
      { type: 'udp', against: 'fake', config: (i) => ({ host, port: udp.port, payload: `ping ${i}`, expect: 'ping' }) },
      { type: 'docker', against: 'fake', config: () => ({ dockerHost: docker.dockerHost, container: 'web' }) },
      {
        type: 'domain-expiry',
        against: 'fake',
        config: (i) => {
          rdap.route(`bench${i}.com`, { expiresAt: inDays(200) });
          return { domain: `bench${i}.com`, rdapUrl: rdap.base };
        },
      },
      { type: 'redis', against: `redis :${REDIS_PORT}`, config: () => ({ host, port: REDIS_PORT }) },
      { type: 'nats', against: `nats-server :${NATS_PORT}`, config: () => ({ host, port: NATS_PORT }) },
      { type: 'amqp', against: `RabbitMQ :${AMQP_PORT}`, config: () => ({ host, port: AMQP_PORT, password: 'guest' }) },
      { type: 'ping', against: 'tcp mode, ssh fake', config: () => ({ host, mode: 'tcp', port: ssh.port }) },
    ];
    return { kinds, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The system's ping (ICMP) to 127.0.0.1: a process spawned per check, so only a small share of the mix. */
export const ICMP_PING: MixKind = {
  type: 'ping',
  against: 'system ping, 127.0.0.1',
  config: () => ({ host: '127.0.0.1', count: 1 }),
};

/** The i-th of `count` monitors' kind: the first `pingShare` of them use the system's ping, the rest take turns. */
export function kindOf(i: number, count: number, kinds: MixKind[], pingShare: number): MixKind {
  const pings = Math.round(count * pingShare);
  return i < pings ? ICMP_PING : (kinds[(i - pings) % kinds.length] as MixKind);
}
