import { describe, expect, it } from 'vitest';
import { readSettings } from './settings.js';

describe('settings from the environment', () => {
  it('has documented defaults', () => {
    const settings = readSettings({});
    expect(settings).toMatchObject({ port: 8080, host: '0.0.0.0', dataDir: './data', sqliteSync: 'full', concurrency: 256, heapGrowthPercent: 50 });
  });

  it('reads each variable and treats an empty one as unset', () => {
    const settings = readSettings({ PORT: '9000', WARDEN_HEAP_GROWTH_PERCENT: '0', WARDEN_SQLITE_SYNC: 'normal', WARDEN_CONFIG: '' });
    expect(settings).toMatchObject({ port: 9000, heapGrowthPercent: 0, sqliteSync: 'normal', configFile: undefined });
  });

  it('lists every invalid variable by name', () => {
    let message = '';
    try {
      readSettings({ PORT: 'eighty', WARDEN_HEAP_GROWTH_PERCENT: '-5', WARDEN_SQLITE_SYNC: 'off' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^invalid environment:/);
    for (const name of ['PORT', 'WARDEN_HEAP_GROWTH_PERCENT', 'WARDEN_SQLITE_SYNC']) expect(message).toContain(name);
  });
});
