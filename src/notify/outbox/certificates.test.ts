// Certificates told from the ingest commit: an https site whose certificate expires in about ten days is told once per
// channel over several checks (to the channels whose tlsDays reach it), then once as expired when checks are refused.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../../../test/app-harness.js';
import { createSelfSignedCertificate, type FakeServer, startWebsiteFake } from '../../../test/fakes/http-fakes.js';
import { type Receiver, startReceiver } from '../../../test/fakes/notify-receivers.js';
import { runThrough } from '../../../test/fakes/probe-runs.js';
import { dialects } from '../../../test/store-dialects.js';
import type { Monitor } from '../../domain/monitor.js';
import { CERTIFICATE_EXPIRED_ERROR } from '../../net/certificates.js';
import { http } from '../../probes/http.js';
import type { NotificationEvent } from '../channels/channel.js';

const SECRET = `whsec_${Buffer.alloc(32, 6).toString('base64')}`;
const certificate = await createSelfSignedCertificate(10);
const yaml = (site: string, hook: string) => `
organization: { key: acme, name: Acme }
monitors:
  - { key: shop, name: Shop, type: http, config: { url: "${site}/ok", ignoreTls: true } }
  - { key: mail, name: Mail, type: tls, config: { host: mail.example.test, port: 465 } }
notifications:
  - { key: usual, name: Usual, type: webhook, config: { url: "${hook}/usual", secret: "${SECRET}" }, rules: { events: [tls.expiring, tls.expired] } }
  - { key: early, name: Early, type: webhook, config: { url: "${hook}/early", secret: "${SECRET}" }, rules: { events: [tls.expiring, tls.expired], tlsDays: 30 } }
  - { key: late, name: Late, type: webhook, config: { url: "${hook}/late", secret: "${SECRET}" }, rules: { events: [tls.expiring, tls.expired], tlsDays: 5 } }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`certificate notices on ${dialect.name}`, () => {
    let h: Harness;
    let site: FakeServer;
    let receiver: Receiver;
    let shop: Monitor;
    beforeAll(async () => {
      site = await startWebsiteFake(certificate);
      receiver = await startReceiver({ status: 204 });
      h = await startHarness(dialect, yaml(site.url, receiver.url));
      shop = h.monitors.shop as Monitor;
    });
    afterAll(async () => {
      await h?.close();
      await receiver?.close();
      await site?.close();
    });

    /** Runs the monitor's check as the edge runner does, through ingest. */
    const check = async () => {
      h.clock.advance(60_000);
      const result = await runThrough(http, shop.config);
      await h.ingest.record({ ...result, monitorId: shop.id, checkedAt: h.clock.now(), source: 'edge' });
      return result;
    };
    let read = 0;
    /** [channel path, kind] of what the receiver got since the last call, once every delivery due was sent. */
    const received = async () => {
      await vi.waitFor(async () => {
        await h.dispatcher.tick();
        const channels = await h.opened.store.channels.list(h.organizationId);
        const deliveries = (
          await Promise.all(channels.map((c) => h.opened.store.deliveries.listByChannel(c.id, 50)))
        ).flat();
        expect(deliveries.filter((d) => d.status === 'pending' || d.status === 'sending')).toEqual([]);
      });
      const got = receiver.requests.slice(read);
      read = receiver.requests.length;
      return got.map((r) => ({ path: r.path, event: (r.json as { data: NotificationEvent }).data }));
    };

    it('tells tls.expiring once per channel whose tlsDays reach the expiry, however many checks see it', async () => {
      const first = await check();
      const daysLeft = first.data?.tlsDaysRemaining as number;
      const validTo = first.data?.tlsValidTo as string;
      expect(daysLeft).toBeGreaterThanOrEqual(9);
      expect(daysLeft).toBeLessThanOrEqual(10);
      for (let i = 0; i < 3; i++) await check();
      const got = await received();
      expect(got.map((r) => r.path).sort()).toEqual(['/early', '/usual']);
      const [one, two] = got.map((r) => r.event);
      expect(one?.id).toBe(two?.id);
      expect(one).toMatchObject({
        kind: 'tls.expiring',
        severity: 'warning',
        title: `The certificate of 127.0.0.1 expires in ${daysLeft} days`,
        tls: { host: '127.0.0.1', expiresAt: Date.parse(validTo), daysLeft },
        monitor: { key: 'shop', name: 'Shop', type: 'http' },
      });
      await check();
      expect(await received()).toEqual([]);
    });

    it('tells tls.expired once when checks are refused for an expired certificate, as that certificate', async () => {
      const validTo = (await h.opened.store.monitors.findById(shop.id))?.lastResult?.data?.tlsValidTo as string;
      const refused = () =>
        h.ingest.record({
          monitorId: shop.id,
          ok: false,
          error: CERTIFICATE_EXPIRED_ERROR,
          checkedAt: h.clock.now(),
          source: 'edge',
        });
      for (let i = 0; i < 3; i++) {
        h.clock.advance(60_000);
        await refused();
      }
      // A check with ignoreTls sees the same certificate expired: the same event, nothing new.
      await h.ingest.record({
        monitorId: shop.id,
        ok: true,
        data: { tlsDaysRemaining: -1, tlsValidTo: validTo },
        checkedAt: h.clock.now() + 1,
        source: 'edge',
      });
      const got = (await received()).filter((r) => r.event.kind.startsWith('tls.'));
      expect(got.map((r) => r.path).sort()).toEqual(['/early', '/late', '/usual']);
      expect(got[0]?.event).toMatchObject({
        kind: 'tls.expired',
        severity: 'critical',
        title: 'The certificate of 127.0.0.1 has expired',
        reason: CERTIFICATE_EXPIRED_ERROR,
        tls: { host: '127.0.0.1', expiresAt: Date.parse(validTo) },
      });
    });

    it('names a tls monitor by its host', async () => {
      const mail = h.monitors.mail as Monitor;
      const validTo = new Date(h.clock.now() + 3 * 86_400_000 + 3_600_000).toISOString();
      await h.ingest.record({
        monitorId: mail.id,
        ok: true,
        degraded: true,
        data: { tlsDaysRemaining: 3, tlsValidTo: validTo },
        checkedAt: h.clock.now(),
        source: 'edge',
      });
      const got = await received();
      expect(got.map((r) => r.path).sort()).toEqual(['/early', '/late', '/usual']);
      expect(got[0]?.event).toMatchObject({
        kind: 'tls.expiring',
        title: 'The certificate of mail.example.test expires in 3 days',
        tls: { host: 'mail.example.test', daysLeft: 3 },
      });
    });
  });
}
