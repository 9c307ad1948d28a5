// The monitor list's beats: each monitor's last checks, from its very first one, and its uptime over the 24 hours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import { DAY_MS } from '../../../domain/check.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the monitor list's beats on ${dialect.name}`, () => {
    let h: ApiHarness;
    const lobby = () => h.a.monitors.lobby!.id;
    const record = (ok: boolean, latencyMs: number | null, text: string) =>
      h.ingest.record({
        monitorId: lobby(),
        ok,
        latencyMs,
        message: ok ? text : null,
        error: ok ? null : text,
        data: null,
        source: 'edge',
      });
    const strips = async () => {
      const panel = h.a.monitors.panel!.id;
      const res = await h.call('GET', `/api/v1/monitors/sparklines?ids=${lobby()},${panel}`, { key: h.a.readKey });
      expect(res.status).toBe(200);
      return (await res.json()).monitors as { id: string; uptime: number | null; beats: Record<string, unknown>[] }[];
    };

    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('gives a monitor without checks no beats and no uptime', async () => {
      const [lobbyStrip, panelStrip] = await strips();
      expect(lobbyStrip).toMatchObject({ uptime: null, beats: [] });
      expect(panelStrip).toMatchObject({ uptime: null, beats: [] });
    });

    it('shows a beat from the first check on, oldest first, with what each check said', async () => {
      await record(true, 12, 'connected');
      const [first] = await strips();
      expect(first?.beats).toEqual([{ at: T0, ok: true, latencyMs: 12, message: 'connected' }]);
      expect(first?.uptime).toBe(1);

      h.clock.advance(60_000);
      await record(false, null, 'connection refused');
      const [second] = await strips();
      expect(second?.beats).toEqual([
        { at: T0, ok: true, latencyMs: 12, message: 'connected' },
        { at: T0 + 60_000, ok: false, latencyMs: null, message: 'connection refused' },
      ]);
      expect(second?.uptime).toBe(0.5);
    });

    it('keeps the last 30 checks, however long ago they ran, while uptime counts only the 24 hours', async () => {
      h.clock.advance(3 * DAY_MS);
      for (let i = 0; i < 35; i++) {
        h.clock.advance(60_000);
        await record(true, i, `check ${i}`);
      }
      const [strip] = await strips();
      expect(strip?.beats).toHaveLength(30);
      expect(strip?.beats[0]).toMatchObject({ message: 'check 5' });
      expect(strip?.beats[29]).toMatchObject({ message: 'check 34', ok: true });
      // The two checks of three days ago are outside the 24 hours.
      expect(strip?.uptime).toBe(1);
    });
  });
}
