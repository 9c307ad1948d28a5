// A monitor's expected restart through the API: set on create, shown on read, changed and removed by PATCH; a rule
// the recurrence cannot read, or an RRULE more often than daily, is refused with the field named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`monitor expected restart API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('keeps the expected restart a monitor is created with, and PATCH changes or removes it', async () => {
      const expectedRestart = [{ cron: '0 4 * * *', timezone: 'Europe/Berlin', durationMin: 5 }];
      const created = await h.call('POST', '/api/v1/monitors', {
        body: {
          key: 'mill',
          name: 'Mill',
          type: 'tcp',
          config: { host: 'mc.example.com', port: 25565 },
          expectedRestart,
        },
      });
      expect(created.status).toBe(201);
      const { id, expectedRestart: shown } = await created.json();
      expect(shown).toEqual(expectedRestart);
      const weekly = [{ rrule: 'FREQ=WEEKLY;BYDAY=TH;BYHOUR=18;BYMINUTE=0', timezone: 'UTC', durationMin: 15 }];
      const patched = await h.call('PATCH', `/api/v1/monitors/${id}`, { body: { expectedRestart: weekly } });
      expect((await patched.json()).expectedRestart).toEqual(weekly);
      await h.call('PATCH', `/api/v1/monitors/${id}`, { body: { name: 'Mill 2' } });
      expect((await (await h.call('GET', `/api/v1/monitors/${id}`)).json()).expectedRestart).toEqual(weekly);
      const removed = await h.call('PATCH', `/api/v1/monitors/${id}`, { body: { expectedRestart: null } });
      expect((await removed.json()).expectedRestart).toBeNull();
    });

    it('answers 400 naming the slot field it cannot read', async () => {
      const post = (expectedRestart: unknown[]) =>
        h.call('POST', '/api/v1/monitors', {
          body: { key: 'mill2', name: 'M', type: 'tcp', config: { host: 'a.example.com', port: 1 }, expectedRestart },
        });
      const paths = async (res: Response) => {
        expect(res.status).toBe(400);
        return (await res.json()).errors.map((e: { path: string }) => e.path);
      };
      expect(await paths(await post([{ cron: '61 4 * * *', durationMin: 5 }]))).toContain(
        'body.expectedRestart[0].cron',
      );
      expect(await paths(await post([{ rrule: 'FREQ=HOURLY', durationMin: 5 }]))).toContain(
        'body.expectedRestart[0].rrule',
      );
      expect(await paths(await post([{ cron: '0 4 * * *', timezone: 'Mars/Olympus', durationMin: 5 }]))).toContain(
        'body.expectedRestart[0].timezone',
      );
    });
  });
}
