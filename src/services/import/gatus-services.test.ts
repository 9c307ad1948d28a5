// `warden import gatus`: endpoints of kinds other than http, tcp, tls and dns (icmp, ssh, starttls, grpc, ws, udp) as
// Warden's own monitor types, and [DOMAIN_EXPIRATION] as an http monitor's domainExpiryDays.
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { importGatus, parseGatusConfig } from './gatus.js';
import { mapConditions } from './gatus-conditions.js';
import type { ImportReport } from './report.js';

describe('importing Gatus endpoints of other kinds', () => {
  let report: ImportReport;
  let monitors: Record<string, Record<string, unknown>>;
  beforeAll(async () => {
    const text = await readFile('test/fixtures/gatus/config.yaml', 'utf8');
    report = importGatus(parseGatusConfig([text]), {});
    monitors = Object.fromEntries((report.file.monitors as Record<string, unknown>[]).map((m) => [m.key as string, m]));
  });

  it('maps icmp to ping, ssh to ssh, starttls to smtp, grpcs to a gRPC health check, wss to websocket, udp to udp', () => {
    expect(monitors.router).toMatchObject({ type: 'ping', config: { host: '192.168.1.1' } });
    expect(monitors.bastion).toMatchObject({ type: 'ssh', config: { host: 'bastion.blocky.example.com', port: 2222 } });
    expect(monitors['mail-submission']).toMatchObject({
      type: 'smtp',
      config: { host: 'mail.blocky.example.com', port: 587, security: 'starttls', certExpiryDays: 2 },
    });
    expect(monitors.orders).toMatchObject({
      type: 'grpc',
      degradedLatencyMs: 300,
      config: { host: 'grpc.blocky.example.com', port: 8443, tls: true },
    });
    expect(monitors['live-map']).toMatchObject({
      type: 'websocket',
      config: { url: 'wss://map.blocky.example.com/socket', message: '{"action": "ping"}', expect: 'pong' },
    });
    expect(monitors.voice).toMatchObject({
      type: 'udp',
      config: { host: 'voice.blocky.example.com', port: 9987, payload: 'ping' },
    });
  });

  it('turns [BODY] conditions of WebSocket and UDP endpoints into the text their answer must contain', () => {
    expect(mapConditions('udp', ['[BODY] == PONG']).config).toEqual({ expect: 'PONG' });
    expect(mapConditions('websocket', ['[BODY] == pat(*a*b*)']).notes).toEqual([
      'condition "[BODY] == pat(*a*b*)" not imported: a Warden websocket monitor checks one piece of text the answer contains',
    ]);
  });

  it('turns [DOMAIN_EXPIRATION] into the http monitor’s domainExpiryDays, in days', () => {
    expect(monitors.api?.config).toMatchObject({ domainExpiryDays: 30 });
    expect(mapConditions('tcp', ['[DOMAIN_EXPIRATION] > 720h']).notes).toEqual([
      'condition "[DOMAIN_EXPIRATION] > 720h" not imported: a tcp monitor does not look the domain up; add a domain-expiry monitor',
    ]);
  });

  it('still reports what has no Warden monitor, with the reason', () => {
    const sctp = importGatus(parseGatusConfig(['endpoints:\n  - name: Sig\n    url: "sctp://10.0.0.1:2905"\n']), {});
    expect(sctp.skipped).toEqual([{ item: 'endpoints[0] "Sig"', reason: 'Warden has no SCTP monitor' }]);
  });
});
