import { describe, expect, it } from 'vitest';
import { addressOf, cellText, extraColumns, extraReportFields, guessedFromText } from './report-fields';

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
    expect(extraReportFields({ servers: [], truncated: false, removed: ['ptero-x'] })).toEqual([
      { name: 'removed', label: 'Removed', value: ['ptero-x'] },
    ]);
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
