// The database and broker servers this machine may run (docs/monitors.md): a monitor type's tests run against the real
// one when it answers, and are skipped with a visible warning when it does not, unless WARDEN_TEST_REQUIRE_<NAME>=1
// (set by .ci/run on a machine that has it), which turns its absence into a failure.
import { connect } from 'node:net';
import { describe } from 'vitest';

export interface RealService {
  name: string;
  /** The suffix of WARDEN_TEST_REQUIRE_… that makes its absence fail. */
  requireKey: string;
  host: '127.0.0.1';
  port: number;
}

export const REAL_SERVICES = {
  postgres: { name: 'PostgreSQL', requireKey: 'POSTGRES', host: '127.0.0.1', port: 5432 },
  mariadb: { name: 'MariaDB', requireKey: 'MARIADB', host: '127.0.0.1', port: 3306 },
  redis: { name: 'Redis', requireKey: 'REDIS', host: '127.0.0.1', port: 6379 },
  mongodb: { name: 'MongoDB', requireKey: 'MONGODB', host: '127.0.0.1', port: 27017 },
  mosquitto: { name: 'Mosquitto', requireKey: 'MOSQUITTO', host: '127.0.0.1', port: 1883 },
  rabbitmq: { name: 'RabbitMQ', requireKey: 'RABBITMQ', host: '127.0.0.1', port: 5672 },
  nats: { name: 'NATS', requireKey: 'NATS', host: '127.0.0.1', port: 4222 },
} as const satisfies Record<string, RealService>;

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether the service answers on its port; warns (or throws, when required) when it does not. */
export async function serviceAvailable(service: RealService): Promise<boolean> {
  const up = await accepts(service.port);
  if (up) return true;
  const where = `${service.host}:${service.port}`;
  if (process.env[`WARDEN_TEST_REQUIRE_${service.requireKey}`] === '1')
    throw new Error(
      `${service.name} is not reachable at ${where}, and WARDEN_TEST_REQUIRE_${service.requireKey}=1 requires it`,
    );
  console.warn(
    `\n  ⚠ ${service.name} is not reachable at ${where}: the tests against the real ${service.name} are SKIPPED.\n`,
  );
  return false;
}

/** A describe block that runs only when the service answers (see serviceAvailable). */
export function describeAgainst(service: RealService, available: boolean, tests: () => void): void {
  describe.skipIf(!available)(`against the real ${service.name} on ${service.host}:${service.port}`, tests);
}
