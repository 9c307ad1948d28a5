// Maintenance covering monitors directly through the API (issue 35): monitors by key of the page's organization, shown
// by key in the views, replaced on change, and a 400 naming each unknown key (another organization's is unknown).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';

const HOUR = 3_600_000;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`maintenance covering monitors through the API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      await h.call('POST', '/api/v1/pages', { body: { slug: 'ops', title: 'Ops' } });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('schedules a window covering monitors, lists and changes them by key', async () => {
      let res = await h.call('POST', '/api/v1/pages/ops/maintenance', {
        body: { title: 'Database', startsAt: T0 + HOUR, endsAt: T0 + 2 * HOUR, monitors: ['panel', 'lobby', 'panel'] },
      });
      expect(res.status).toBe(201);
      const window = await res.json();
      expect(window).toMatchObject({
        components: [],
        monitors: ['lobby', 'panel'],
        monitorIds: [h.a.monitors.lobby?.id, h.a.monitors.panel?.id],
      });
      const { maintenance } = await (await h.call('GET', '/api/v1/maintenance')).json();
      expect(maintenance.find((m: { id: string }) => m.id === window.id)).toMatchObject({
        page: { slug: 'ops' },
        monitors: ['lobby', 'panel'],
      });
      res = await h.call('PATCH', `/api/v1/pages/ops/maintenance/${window.id}`, { body: { monitors: ['panel'] } });
      expect(await res.json()).toMatchObject({ monitors: ['panel'] });
      // A change of other fields keeps them.
      res = await h.call('PATCH', `/api/v1/pages/ops/maintenance/${window.id}`, { body: { title: 'Database 2' } });
      expect(await res.json()).toMatchObject({ title: 'Database 2', monitors: ['panel'] });
      res = await h.call('GET', `/api/v1/pages/ops/maintenance/${window.id}`);
      expect(await res.json()).toMatchObject({ monitors: ['panel'] });
    });

    it('answers 400 naming each unknown monitor, another organization’s included', async () => {
      let res = await h.call('POST', '/api/v1/pages/ops/maintenance', {
        body: { title: 'Bad', startsAt: T0, endsAt: T0 + HOUR, monitors: ['lobby', 'hub', 'nope'] },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).errors).toEqual([
        { path: 'body.monitors[1]', message: 'no monitor with key "hub"' },
        { path: 'body.monitors[2]', message: 'no monitor with key "nope"' },
      ]);
      const window = await (
        await h.call('POST', '/api/v1/pages/ops/maintenance', {
          body: { title: 'Ok', startsAt: T0, endsAt: T0 + HOUR },
        })
      ).json();
      res = await h.call('PATCH', `/api/v1/pages/ops/maintenance/${window.id}`, { body: { monitors: ['nope'] } });
      expect(res.status).toBe(400);
      expect((await res.json()).errors).toEqual([{ path: 'body.monitors[0]', message: 'no monitor with key "nope"' }]);
    });
  });
}
