// Recurring maintenance through the API (issue 35): slots of RRULE or cron in a time zone, the next occurrence in the
// view, and a 400 naming the field with the library's complaint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';

const HOUR = 3_600_000;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`recurring maintenance API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      await h.call('POST', '/api/v1/pages', { body: { slug: 'ops', title: 'Ops' } });
      await h.call('POST', '/api/v1/pages/ops/components', { body: { key: 'lobby', name: 'Lobby server' } });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('schedules a recurring window, open-ended from now, and shows its next occurrence', async () => {
      // T0 is Tuesday 2026-03-10 12:00 UTC; Mondays 02:00 in Berlin (CET) are 01:00 UTC.
      const recurrence = [
        { rrule: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=2', timezone: 'Europe/Berlin', durationMin: 30 },
        { cron: '0 12 * * 2', timezone: 'UTC', durationMin: 60 },
      ];
      let res = await h.call('POST', '/api/v1/pages/ops/maintenance', {
        body: { title: 'Weekly', recurrence, components: ['lobby'] },
      });
      expect(res.status).toBe(201);
      const window = await res.json();
      expect(window).toMatchObject({
        startsAt: T0,
        endsAt: Date.UTC(9999, 11, 31),
        recurrence,
        repeats: 'Every Monday at 02:00 (Europe/Berlin), 30 min; Every Tuesday at 12:00 (UTC), 1 h',
        next: { startsAt: T0, endsAt: T0 + HOUR },
      });
      res = await h.call('PATCH', `/api/v1/pages/ops/maintenance/${window.id}`, {
        body: { recurrence: [recurrence[0]] },
      });
      expect((await res.json()).next).toEqual({
        startsAt: Date.UTC(2026, 2, 16, 1),
        endsAt: Date.UTC(2026, 2, 16, 1, 30),
      });
      res = await h.call('PATCH', `/api/v1/pages/ops/maintenance/${window.id}`, {
        body: { recurrence: null, endsAt: T0 + 2 * HOUR },
      });
      expect(await res.json()).toMatchObject({
        recurrence: null,
        repeats: null,
        next: { startsAt: T0, endsAt: T0 + 2 * HOUR },
      });
    });

    it('answers 400 naming the field, with the library error', async () => {
      const post = async (slot: object) => {
        const res = await h.call('POST', '/api/v1/pages/ops/maintenance', {
          body: { title: 'Bad', recurrence: [slot] },
        });
        expect(res.status).toBe(400);
        return (await res.json()).errors as { path: string; message: string }[];
      };
      expect(await post({ rrule: 'FREQ=DAILY;FOO=1', durationMin: 10 })).toEqual([
        { path: 'body.recurrence[0].rrule', message: "Unknown RRULE property 'FOO'" },
      ]);
      expect(await post({ cron: '61 2 * * 1', durationMin: 10 })).toEqual([
        { path: 'body.recurrence[0].cron', message: expect.stringContaining('Constraint error') },
      ]);
      expect((await post({ cron: '0 2 * * 1', timezone: 'Nowhere/Else', durationMin: 10 }))[0]?.path).toBe(
        'body.recurrence[0].timezone',
      );
      expect((await post({ rrule: 'FREQ=DAILY', cron: '0 2 * * 1', durationMin: 10 }))[0]?.path).toBe(
        'body.recurrence[0].rrule',
      );
      const res = await h.call('POST', '/api/v1/pages/ops/maintenance', { body: { title: 'No times' } });
      expect((await res.json()).errors).toEqual([
        { path: 'body.startsAt', message: 'required unless the window has a recurrence' },
        { path: 'body.endsAt', message: 'required unless the window has a recurrence' },
      ]);
    });
  });
}
