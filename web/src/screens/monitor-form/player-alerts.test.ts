import { describe, expect, it } from 'vitest';
import { changeChoices, defaultForMin, playerAlertsJson, playerAlertValues } from './player-alerts';

describe('the monitor form’s player alerts', () => {
  it('sends only what is set, and null when nothing is (which removes them)', () => {
    const values = { ...playerAlertValues(null), fullForMin: '10', bandMin: '2', bandMax: '60', changes: ['map'] };
    expect(playerAlertsJson(values)).toEqual({ fullForMin: 10, band: { min: 2, max: 60 }, changes: ['map'] });
    expect(playerAlertsJson({ ...values, fullForMin: '', bandMin: '', bandMax: '', changes: [] })).toBeNull();
    expect(playerAlertsJson({ ...playerAlertValues(null), bandMax: '8' })).toEqual({ band: { max: 8 } });
  });

  it('shows stored alerts as the form holds them, and sends them back unchanged', () => {
    const stored = { queueAbove: 20, band: { min: 1 }, emptyFromUsual: true, forMin: 15, changes: ['version'] };
    const values = playerAlertValues(stored);
    expect(values).toMatchObject({ queueAbove: '20', bandMin: '1', bandMax: '', emptyFromUsual: true, forMin: '15' });
    expect(playerAlertsJson(values)).toEqual(stored);
  });

  it('offers the changes the schema lists, with labels, and the default wait from its description', () => {
    const schema = {
      properties: {
        changes: { type: 'array', items: { type: 'string', enum: ['version', 'map', 'wipe'] } },
        forMin: { type: 'integer', description: 'Minutes … before the alert (default 5).' },
      },
    };
    expect(changeChoices(schema).map((c) => c.label)).toEqual(['Version', 'Map', 'Wipe']);
    expect(changeChoices(undefined).map((c) => c.value)).toEqual(['version', 'map']);
    expect(defaultForMin(schema)).toBe('5');
  });
});
