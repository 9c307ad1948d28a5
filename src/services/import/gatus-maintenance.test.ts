// Gatus's maintenance objects as recurring windows: weekly or daily RRULE slots, an endpoint's covering its component.
import { describe, expect, it } from 'vitest';
import { gatusSlot, maintenanceWindows } from './gatus-maintenance.js';

describe('Gatus maintenance', () => {
  it('reads start, duration, weekdays and zone as one slot', () => {
    expect(
      gatusSlot({ start: '2:30', duration: '90m', every: ['Saturday', 'sunday'], timezone: 'Europe/Berlin' }),
    ).toEqual({ rrule: 'FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=2;BYMINUTE=30', timezone: 'Europe/Berlin', durationMin: 90 });
    expect(gatusSlot({ start: '23:00', duration: '1h' })).toEqual({
      rrule: 'FREQ=DAILY;BYHOUR=23;BYMINUTE=0',
      timezone: 'UTC',
      durationMin: 60,
    });
    expect(gatusSlot({ enabled: false, start: '23:00', duration: '1h' })).toBeNull();
    expect(gatusSlot({ start: '23:00' })).toEqual({ skip: 'it has no duration such as 1h' });
    expect(gatusSlot({ start: '23:00', duration: '1h', every: ['Someday'] })).toMatchObject({
      skip: expect.any(String),
    });
    expect(gatusSlot({ start: '23:00', duration: '1h', timezone: 'Mars/Base' })).toMatchObject({
      skip: expect.stringMatching(/^timezone: /),
    });
  });

  it("places an endpoint's windows on its component, and reports one whose endpoint is not on the page", () => {
    const skipped: { item: string; reason: string }[] = [];
    const page = { components: [{ name: 'Lobby', monitor: 'lobby' }] };
    const windows = maintenanceWindows(
      [
        {
          value: { start: '04:00', duration: '15m' },
          item: 'endpoints[0] "Lobby" maintenance-windows[0]',
          monitor: 'lobby',
        },
        {
          value: { start: '04:00', duration: '15m' },
          item: 'endpoints[1] "Off" maintenance-windows[0]',
          monitor: 'off',
        },
      ],
      page,
      skipped,
    );
    expect(windows).toEqual([
      {
        key: 'maintenance-1',
        title: 'Maintenance of Lobby',
        recurrence: [{ rrule: 'FREQ=DAILY;BYHOUR=4;BYMINUTE=0', timezone: 'UTC', durationMin: 15 }],
        components: ['Lobby'],
      },
    ]);
    expect(skipped).toEqual([
      { item: 'endpoints[1] "Off" maintenance-windows[0]', reason: 'its endpoint is not on the page (disabled)' },
    ]);
  });
});
