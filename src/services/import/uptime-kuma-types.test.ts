// `warden import uptime-kuma`: Kuma's ping, database, broker, Docker, gRPC, WebSocket and SMTP monitors as Warden's own
// types, on a 1.23 and a 2.x database (the fixture's rows: test/fixtures/uptime-kuma/rows-*.sql).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKumaFixture, KUMA_FIXTURE_VERSIONS } from '../../../test/fixtures/uptime-kuma/kuma-fixture.js';
import { importKumaFixture } from '../../../test/fixtures/uptime-kuma/kuma-import.js';
import type { KumaMonitorRow } from '../../store/index.js';
import { openUptimeKumaDatabase } from '../../store/uptime-kuma.js';
import type { ImportReport } from './report.js';
import { kumaMonitorEntry } from './uptime-kuma-monitors.js';

for (const version of KUMA_FIXTURE_VERSIONS) {
  describe(`importing the monitor types of an Uptime Kuma ${version} database`, () => {
    const fixture = buildKumaFixture(version);
    afterAll(() => fixture.cleanup());
    let report: ImportReport;
    let monitors: Record<string, Record<string, unknown>>;
    const notes = (item: string) =>
      report.approximated
        .filter((n) => n.item.startsWith(item))
        .map((n) => n.reason)
        .join('\n');

    beforeAll(async () => {
      ({ report, monitors } = await importKumaFixture(fixture.file));
    });

    it('maps ping monitors with their echo requests per check', () => {
      expect(monitors['router-ping']).toMatchObject({
        type: 'ping',
        intervalSec: 60,
        config: { host: '192.168.1.1', count: version === '2.x' ? 3 : 1 },
      });
    });

    it('maps database connection strings to fields, the password as an ${ENV} placeholder', () => {
      expect(monitors['orders-db']).toMatchObject({
        type: 'postgres',
        intervalSec: 120,
        timeoutMs: 10_000,
        retries: 1,
        config: {
          host: 'db.example.com',
          port: 5432,
          user: 'app',
          password: '${KUMA_ORDERS_DB_PASSWORD}',
          database: 'orders',
          tls: true,
          query: 'SELECT 1',
        },
      });
      expect(notes('monitor "Orders DB"')).toContain('${KUMA_ORDERS_DB_PASSWORD}');
      expect(monitors['shop-mysql']?.config).toEqual({
        host: '10.0.0.7',
        port: 3306,
        user: 'shop',
        password: '${KUMA_SHOP_MYSQL_PASSWORD}',
        database: 'shop',
      });
      expect(monitors.sessions?.config).toEqual({
        host: 'cache.example.com',
        port: 6380,
        password: '${KUMA_SESSIONS_PASSWORD}',
      });
      expect(monitors.documents?.config).toEqual({
        host: 'mongo.example.com',
        port: 27017,
        username: 'reader',
        password: '${KUMA_DOCUMENTS_PASSWORD}',
        authSource: 'admin',
        database: 'docs',
      });
    });

    it('maps MQTT, Docker and gRPC monitors', () => {
      expect(monitors.broker?.config).toEqual({
        host: 'mqtt.example.com',
        port: 8883,
        tls: true,
        username: 'kuma',
        password: '${KUMA_BROKER_PASSWORD}',
        topic: 'status',
        expected: '/online \\(ok\\)/',
      });
      expect(monitors['docker-app']).toMatchObject({
        type: 'docker',
        config: { dockerHost: 'unix:///var/run/docker.sock', container: 'app' },
      });
      expect(monitors['orders-grpc']).toMatchObject({
        type: 'grpc',
        config: { host: 'grpc.example.com', port: 50051, tls: true, service: 'orders' },
      });
      expect(notes('monitor "Orders gRPC"')).toBe('');
      expect(monitors['search-grpc']).toMatchObject({
        type: 'grpc',
        config: { host: 'search.example.com', port: 9000 },
      });
      expect(notes('monitor "Search gRPC"')).toContain('Kuma called search.Search/Query and looked for "results"');
    });

    it('reports what has no Warden equivalent, each with its reason', () => {
      const skipped = Object.fromEntries(report.skipped.map((n) => [n.item, n.reason]));
      expect(skipped).toMatchObject({
        'monitor "Legacy SQL" (id 31)': expect.stringContaining('no SQL Server monitor'),
        'monitor "Browser check" (id 17)': expect.stringContaining('no browser-rendering monitor'),
        'monitor "Tailnet NAS" (id 34)': expect.stringContaining('no Tailscale monitor'),
        'monitor "Events" (id 35)': expect.stringContaining('no Kafka monitor'),
      });
    });

    // Only 2.x has these types: the 1.23 database holds none of them.
    if (version === '2.x')
      it('maps 2.x types: WebSocket upgrade, SMTP and RabbitMQ, and domain expiry', () => {
        expect(monitors['live-feed']).toMatchObject({
          type: 'websocket',
          config: { url: 'wss://feed.example.com/socket' },
        });
        expect(notes('monitor "Live feed"')).toContain('subprotocol v2.feed');
        expect(monitors['mail-relay']).toMatchObject({
          type: 'smtp',
          intervalSec: 300,
          config: { host: 'mail.example.com', port: 465, security: 'tls' },
        });
        expect(monitors.queue).toMatchObject({
          type: 'http',
          config: {
            url: 'https://rabbit1.example.com:15672/api/health/checks/alarms/',
            headers: { Authorization: 'Basic ${KUMA_QUEUE_BASIC_AUTH}' },
          },
        });
        expect(notes('monitor "Queue"')).toContain('asked 2 nodes');
        // Kuma 2.x warns of a domain's expiry unless turned off (the Website turned it off).
        expect(monitors['shop-keyword']?.config).toMatchObject({ domainExpiryDays: 21 });
        expect(monitors.website?.config).not.toHaveProperty('domainExpiryDays');
      });
  });
}

describe('Kuma monitors whose settings Warden cannot follow', () => {
  const fixture = buildKumaFixture('2.x');
  afterAll(() => fixture.cleanup());
  let base: KumaMonitorRow;
  beforeAll(() => {
    const kuma = openUptimeKumaDatabase(fixture.file);
    base = kuma.read().monitors.find((m) => m.id === 27) as KumaMonitorRow;
    kuma.close();
  });
  const skip = (changes: Partial<KumaMonitorRow>) => {
    const mapping = kumaMonitorEntry({ ...base, ...changes }, 'x', [], () => undefined, 'gamedig', []);
    return 'skip' in mapping ? mapping.skip : undefined;
  };

  it('skips each with its reason', () => {
    expect(skip({ database_connection_string: 'postgres://<user>:<password>@<host>:<port>/<db>' })).toContain(
      'not a URL Warden reads',
    );
    expect(skip({ database_connection_string: `postgres://u:p@${'h'.repeat(5000)}:5432/db` })).toContain(
      'not a URL Warden reads',
    );
    expect(skip({ type: 'mongodb', database_connection_string: 'mongodb+srv://u:p@cluster.example.com/db' })).toContain(
      'mongodb+srv:// seed list',
    );
    expect(skip({ type: 'mqtt', hostname: 'ws://broker.example.com', port: 9001 })).toContain('not over WebSocket');
    expect(skip({ type: 'docker', docker_container: 'app', docker_host: 7 })).toBe('it names no Docker host');
    expect(skip({ type: 'grpc-keyword', grpc_url: 'grpc.example.com' })).toBe('its gRPC URL is not host:port');
    expect(skip({ type: 'rabbitmq', rabbitmq_nodes: '[]' })).toBe('it names no management API URL');
  });
});
