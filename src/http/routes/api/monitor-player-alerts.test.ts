// A monitor's player alerts through the API: set on create, shown on read, changed and removed by PATCH, refused out
// of range with the field named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`monitor player alerts API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('keeps the player alerts a monitor is created with, and PATCH changes or removes them', async () => {
      const playerAlerts = { fullForMin: 10, queueAbove: 20, band: { min: 2, max: 60 }, forMin: 15, changes: ['map'] };
      const created = await h.call('POST', '/api/v1/monitors', {
        body: { key: 'arena', name: 'Arena', type: 'source', config: { host: 'cs.example.com' }, playerAlerts },
      });
      expect(created.status).toBe(201);
      const { id, playerAlerts: shown } = await created.json();
      expect(shown).toEqual(playerAlerts);
      const patched = await h.call('PATCH', `/api/v1/monitors/${id}`, { body: { playerAlerts: { fullForMin: 5 } } });
      expect((await patched.json()).playerAlerts).toEqual({ fullForMin: 5 });
      // Another change leaves them as they are.
      await h.call('PATCH', `/api/v1/monitors/${id}`, { body: { name: 'Arena 2' } });
      expect((await (await h.call('GET', `/api/v1/monitors/${id}`)).json()).playerAlerts).toEqual({ fullForMin: 5 });
      const removed = await h.call('PATCH', `/api/v1/monitors/${id}`, { body: { playerAlerts: null } });
      expect((await removed.json()).playerAlerts).toBeNull();
    });

    it('answers 400 naming the field out of range', async () => {
      const res = await h.call('POST', '/api/v1/monitors', {
        body: {
          key: 'arena3',
          name: 'A',
          type: 'source',
          config: { host: 'cs.example.com' },
          playerAlerts: { fullForMin: 0 },
        },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain('body.playerAlerts.fullForMin');
    });
  });
}
