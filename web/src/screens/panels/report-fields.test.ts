import { describe, expect, it } from 'vitest';
import { addressOf, cellText, extraColumns, extraReportFields, guessedFromText, reportItemText } from './report-fields';

describe('the panel screen’s report fields', () => {
  it('finds the fields of results no column knows, once each, with a heading', () => {
    const servers = [
      { identifier: 'a', name: 'A', monitor: 'created', resourceMonitor: null, component: 'created', error: null },
      { identifier: 'b', name: 'B', monitor: 'skipped', maintenance: 'created', restartWindow: '04:00' },
      { identifier: 'c', name: 'C', maintenance: 'unchanged' },
    ];
    expect(extraColumns(servers)).toEqual([
      { name: 'maintenance', label: 'Maintenance' },
      { name: 'restartWindow', label: 'Restart window' },
    ]);
  });

  it('shows the report’s own extra fields, but not the servers nor truncated', () => {
    expect(extraReportFields({ servers: [], truncated: false, gone: [], removed: ['ptero-x'], later: 1 })).toEqual([
      { name: 'gone', label: 'Gone from the panel (left in place)', value: [] },
      { name: 'removed', label: 'Gone from the panel and removed', value: ['ptero-x'] },
      { name: 'later', label: 'Later', value: 1 },
    ]);
  });

  it('writes a server gone from the panel as its key and what apply made for it', () => {
    const gone = {
      key: 'ptero-1a7ce997',
      monitors: ['ptero-1a7ce997', 'ptero-1a7ce997-resources'],
      component: 'ptero-1a7ce997',
      restarts: 'ptero-1a7ce997-restarts',
    };
    expect(reportItemText(gone)).toBe(
      'ptero-1a7ce997: monitors ptero-1a7ce997, ptero-1a7ce997-resources · component ptero-1a7ce997 · restart window ptero-1a7ce997-restarts',
    );
    expect(
      reportItemText({ key: 'ptero-2b8df008', monitors: ['ptero-2b8df008'], component: null, restarts: null }),
    ).toBe('ptero-2b8df008: monitors ptero-2b8df008 · component — · restart window —');
    expect(reportItemText('ptero-x')).toBe('ptero-x');
    expect(reportItemText({ at: '04:00' })).toBe('{"at":"04:00"}');
  });

  it('writes values as text a cell can hold', () => {
    expect(cellText(null)).toBe('—');
    expect(cellText(['a', 'b'])).toBe('a, b');
    expect(cellText([])).toBe('none');
    expect(cellText(true)).toBe('yes');
    expect(cellText({ at: '04:00' })).toBe('{"at":"04:00"}');
  });

  it('says where a type was guessed from and the address checked', () => {
    expect(guessedFromText('egg')).toBe('from the egg');
    expect(guessedFromText(null)).toBe('no game recognized: a TCP check');
    expect(addressOf({ host: 'mc.example.com', port: 25565 })).toBe('mc.example.com:25565');
    expect(addressOf({ panelUrl: 'x' })).toBeNull();
  });
});
