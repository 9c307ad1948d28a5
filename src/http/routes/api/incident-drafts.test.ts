// Draft incidents end to end over HTTP (issue 37): a component down for the page's afterMin gets one draft (across two
// scans at once), never public nor told until an operator publishes it; a recovered one is discarded; an `auto` page
// publishes at once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import { createDraftScan } from '../../../services/incidents/draft-scan.js';

const MIN = 60_000;
const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`draft incidents on ${dialect.name}`, () => {
    let h: ApiHarness;
    let channelId: string;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      const page = await h.call('POST', '/api/v1/pages', {
        body: { slug: 'ops', title: 'Ops', draftIncidents: { afterMin: 10 } },
      });
      expect(await page.json()).toMatchObject({ draftIncidents: { afterMin: 10, publish: 'draft' } });
      await h.call('POST', '/api/v1/pages/ops/components', { body: { key: 'lobby', name: 'Lobby', monitor: 'lobby' } });
      const channel = await h.call('POST', '/api/v1/notification-channels', {
        body: {
          key: 'hook',
          name: 'Hook',
          type: 'webhook',
          config: { url: 'http://127.0.0.1:9/hook', secret: SECRET },
        },
      });
      channelId = (await channel.json()).id;
      await h.pages.start();
    });
    afterAll(async () => {
      await h?.close();
    });

    /** A scan, as any process's timer runs it. */
    const scan = () => createDraftScan(h.context)();
    const result = (ok: boolean) =>
      h.ingest.record({ monitorId: h.a.monitors.lobby?.id as string, ok, source: 'push', checkedAt: h.clock.now() });
    const drafts = async (status = 'draft') =>
      (await (await h.call('GET', `/api/v1/pages/ops/incident-drafts?status=${status}`)).json()).drafts;
    const told = async () =>
      (await h.store.deliveries.listByChannel(channelId, 50)).filter((d) => JSON.stringify(d).includes('incident.'));
    const publicForms = async () => {
      await h.pages.refreshAll();
      const forms = ['status.json', '', 'feed.xml'].map((form) =>
        h.call('GET', `http://warden.test/s/ops/${form}`, { key: null }).then((r) => r.text()),
      );
      return (await Promise.all(forms)).join('\n');
    };

    it('drafts one incident for a component down for afterMin, not public and told to no one', async () => {
      await result(false);
      const downSince = h.clock.now();
      h.clock.advance(10 * MIN - 1);
      expect(await scan()).toEqual({ drafted: 0, published: 0, discarded: 0 });
      h.clock.advance(1);
      const [mine, theirs] = await Promise.all([scan(), scan()]);
      expect(mine.drafted + theirs.drafted).toBe(1);
      expect(await scan()).toEqual({ drafted: 0, published: 0, discarded: 0 });
      expect(await drafts()).toEqual([
        expect.objectContaining({
          component: 'lobby',
          downSince,
          title: 'Lobby is down',
          message: 'Lobby is not responding. We are investigating.',
          status: 'draft',
        }),
      ]);
      expect(await publicForms()).not.toContain('Lobby is down');
      expect(await told()).toEqual([]);
    });

    it('publishes a draft with one call, edited: public and told to subscribers', async () => {
      const [draft] = await drafts();
      const res = await h.call('POST', `/api/v1/pages/ops/incident-drafts/${draft.id}/publish`, {
        body: { message: 'Lobby is down; we are restarting it.' },
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({
        title: 'Lobby is down',
        status: 'investigating',
        impact: 'major',
        startedAt: draft.downSince,
        components: ['lobby'],
        updates: [{ message: 'Lobby is down; we are restarting it.' }],
      });
      expect(await drafts()).toEqual([]);
      expect((await drafts('published'))[0]).toMatchObject({ id: draft.id, incidentId: expect.any(String) });
      await vi.waitFor(async () => expect(await publicForms()).toContain('Lobby is down'));
      expect(await told()).toHaveLength(1);
      const again = await h.call('POST', `/api/v1/pages/ops/incident-drafts/${draft.id}/publish`, { body: {} });
      expect(again.status).toBe(409);
      const audit = await (await h.call('GET', '/api/v1/audit?limit=5')).json();
      expect(JSON.stringify(audit)).toContain('incident-draft.publish');
    });

    it('drafts nothing while an open incident names the component; discards a draft when the component recovers', async () => {
      // The published incident is open: the same component down again is not drafted.
      await result(true);
      h.clock.advance(MIN);
      await result(false);
      h.clock.advance(10 * MIN);
      expect((await scan()).drafted).toBe(0);
      const [incident] = (await (await h.call('GET', '/api/v1/pages/ops/incidents')).json()).incidents;
      await h.call('POST', `/api/v1/incidents/${incident.id}/updates`, { body: { status: 'resolved', message: 'Up' } });
      expect((await scan()).drafted).toBe(1);
      await result(true);
      expect(await scan()).toEqual({ drafted: 0, published: 0, discarded: 1 });
      expect(await drafts()).toEqual([]);
      expect((await drafts('discarded'))[0]).toMatchObject({ discardedReason: 'recovered' });
    });

    it('discards a draft by hand (DELETE)', async () => {
      await result(false);
      h.clock.advance(10 * MIN);
      expect((await scan()).drafted).toBe(1);
      const [draft] = await drafts();
      expect((await h.call('DELETE', `/api/v1/pages/ops/incident-drafts/${draft.id}`)).status).toBe(204);
      expect((await drafts('discarded'))[0]).toMatchObject({ id: draft.id, discardedReason: 'operator' });
      expect((await scan()).drafted).toBe(0);
      await result(true);
    });

    it('publishes at once on a page that opts in to auto', async () => {
      const patched = await h.call('PATCH', '/api/v1/pages/ops', {
        body: { draftIncidents: { afterMin: 5, publish: 'auto' } },
      });
      expect(patched.status).toBe(200);
      const before = (await told()).length;
      h.clock.advance(MIN);
      await result(false);
      h.clock.advance(5 * MIN);
      expect(await scan()).toEqual({ drafted: 0, published: 1, discarded: 0 });
      expect(await drafts()).toEqual([]);
      const [latest] = (await (await h.call('GET', '/api/v1/pages/ops/incidents')).json()).incidents;
      expect(latest).toMatchObject({ title: 'Lobby is down', status: 'investigating', resolvedAt: null });
      expect((await told()).length).toBe(before + 1);
    });

    it('refuses an afterMin out of range, naming the field', async () => {
      const res = await h.call('PATCH', '/api/v1/pages/ops', { body: { draftIncidents: { afterMin: 0 } } });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain('draftIncidents.afterMin');
    });
  });
}
