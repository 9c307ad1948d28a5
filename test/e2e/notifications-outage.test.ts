// Alerts end to end, in process: a webhook receiver down for two minutes (Warden on an injected clock) gets every
// message afterwards, each once, in order per monitor.
import { describe, expect, it } from 'vitest';
import { composeWarden } from '../../src/compose.js';
import type { Monitor } from '../../src/domain/monitor.js';
import { createLogger } from '../../src/logger.js';
import { type Receiver, startReceiver } from '../fakes/notify-receivers.js';
import { seed } from '../seed.js';
import { dialects } from '../store-dialects.js';

describe('a webhook receiver down for two minutes (in-process, injected clock)', () => {
  for (const dialect of dialects)
    it.skipIf(!dialect.available)(
      `gets every message afterwards, each once, in order per monitor (${dialect.name})`,
      async () => {
        const opened = await dialect.open();
        const probe = await startReceiver();
        const port = Number(new URL(probe.url).port);
        await probe.close();
        const start = Date.UTC(2026, 2, 2, 12, 0, 0);
        const clock = { t: start, now: () => clock.t };
        const yaml = `
organization: { key: acme, name: Acme }
monitors:
  - { key: a, name: A, type: heartbeat }
  - { key: b, name: B, type: heartbeat }
notifications:
  - key: hook
    name: Hook
    type: webhook
    config: { url: "http://127.0.0.1:${port}/hook", secret: "whsec_${Buffer.alloc(32, 1).toString('base64')}" }
`;
        const { monitors, report } = await seed(opened.store, yaml, start);
        const parts = composeWarden({
          store: opened.store,
          clock,
          logger: createLogger('silent'),
          baseUrl: () => 'https://status.test',
        });
        let receiver: Receiver | null = null;
        try {
          const ids = { a: (monitors.a as Monitor).id, b: (monitors.b as Monitor).id };
          // Two minutes of changes while nothing listens: each monitor flips every 20 s (A) or 30 s (B); the dispatcher
          // tries every 5 s meanwhile and is refused.
          const flips: Record<'a' | 'b', boolean[]> = { a: [], b: [] };
          for (let second = 0; second <= 120; second += 5) {
            clock.t = start + second * 1000;
            for (const [key, every] of [
              ['a', 20],
              ['b', 30],
            ] as const)
              if (second % every === 0) {
                const ok = (second / every) % 2 === 1;
                flips[key].push(ok);
                await parts.ingest.record({
                  monitorId: ids[key],
                  ok,
                  error: ok ? null : 'no heartbeat',
                  source: 'push',
                });
              }
            await parts.dispatcher.tick();
          }
          const channel = await opened.store.channels.findByKey(report.organization.id, 'hook');
          const log = await opened.store.deliveries.listByChannel(channel?.id as string, 100);
          expect(log.length).toBeGreaterThanOrEqual(8);
          expect(log.every((d) => d.status === 'pending' || d.status === 'sending')).toBe(true);
          expect(log.some((d) => d.lastError !== null)).toBe(true);

          receiver = await startReceiver({ status: 204 }, port);
          // Time moves on (retries back off up to an hour): every delivery goes out once it is due.
          for (
            let i = 0;
            i < 200 &&
            (await opened.store.deliveries.listByChannel(channel?.id as string, 100)).some((d) => d.status !== 'sent');
            i++
          ) {
            clock.t += 60_000;
            await parts.dispatcher.tick();
          }
          const got = receiver.requests.map((r) => ({
            id: r.headers['webhook-id'] as string,
            body: r.json as { type: string; data: { at: number; monitor: { key: string } } },
          }));
          expect(new Set(got.map((g) => g.id)).size).toBe(log.length);
          expect(got).toHaveLength(log.length);
          for (const key of ['a', 'b'] as const) {
            const mine = got.filter((g) => g.body.data.monitor.key === key);
            const times = mine.map((g) => g.body.data.at);
            expect(times).toEqual([...times].sort((x, y) => x - y));
            // down, recovered, down, …: the first result (an outage from unknown) and each flip after it.
            expect(mine.map((g) => g.body.type)).toEqual(
              flips[key].map((ok) => (ok ? 'monitor.recovered' : 'monitor.down')),
            );
          }
        } finally {
          await parts.dispatcher.stop();
          await parts.ingest.close();
          parts.outbox.close();
          await parts.bus.close();
          await receiver?.close();
          await opened.cleanup();
        }
      },
      30_000,
    );
});
