// The dashboard's types of the organization live stream are generated from the server's zod schemas: the committed
// web/src/api/live-schema.d.ts must be what `npm run gen:api` writes today, so a change to a message shows up in tsc.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIVE_TYPES_FILE, liveTypesSource } from '../web/scripts/generate-live-types.js';

describe('the dashboard live stream types', () => {
  it('are current: web/src/api/live-schema.d.ts is what npm run gen:api writes', async () => {
    expect(
      readFileSync(LIVE_TYPES_FILE, 'utf8'),
      'stale: run npm run gen:api and commit web/src/api/live-schema.d.ts',
    ).toBe(await liveTypesSource());
  });

  it('describe every message the server sends, with the monitor each carries', async () => {
    const source = await liveTypesSource();
    for (const name of ['LiveMonitor', 'LiveSnapshotMessage', 'LiveMonitorMessage', 'LiveMessage'])
      expect(source).toContain(`${name}: `);
    expect(source).toContain('type: "snapshot";');
    expect(source).toMatch(/state: [^;]*"paused";/);
  });
});
