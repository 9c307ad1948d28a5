// Player alerts as a channel hears them: a game server's heartbeats (POST /api/push/{token}, players in the JSON body)
// full for the monitor's hold time bring one players.alert, the first one below full its players.ok, and a new version
// a game.changed; a heartbeat repeated after the alert adds nothing; under maintenance nothing is sent. The clock is
// the harness's.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { type Receiver, startReceiver } from '../../test/fakes/notify-receivers.js';
import { dialects } from '../../test/store-dialects.js';
import type { NotificationEvent } from '../notify/channels/channel.js';

const TOKEN = 'wdp_playerAlertsHeartbeatTok01';
const QUIET = 'wdp_playerAlertsQuietArenaTok01';
const HALL = 'wdp_playerAlertsMaintainedHall01';
const START = Date.UTC(2026, 10, 20, 12);
const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
const MIN = 60_000;
const yaml = (hook: string) => `
organization: { key: acme, name: Acme, probePrivateTargets: allow }
monitors:
  - key: lobby
    name: Lobby
    type: heartbeat
    pushToken: ${TOKEN}
    config: { graceSec: 86400 }
    playerAlerts: { fullForMin: 10, changes: [version] }
  - key: arena
    name: Arena
    type: heartbeat
    pushToken: ${QUIET}
    config: { graceSec: 86400 }
    playerAlerts: { emptyFromUsual: true, forMin: 5 }
  - key: hall
    name: Hall
    type: heartbeat
    pushToken: ${HALL}
    config: { graceSec: 86400 }
    playerAlerts: { fullForMin: 1 }
pages:
  - slug: acme
    title: Acme
    components: [{ key: hall, name: Hall, monitor: hall }]
    maintenance:
      - { key: works, title: Works, startsAt: ${START - 60 * MIN}, endsAt: ${START + 5 * MIN}, monitors: [hall] }
notifications:
  - { key: hook, name: Hook, type: webhook, config: { url: "${hook}", secret: "${SECRET}" } }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`player alerts from heartbeats on ${dialect.name}`, () => {
    let h: Harness;
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver({ status: 204 });
      h = await startHarness(dialect, yaml(`${receiver.url}/hook`), START);
    });
    afterAll(async () => {
      await h?.close();
      await receiver?.close();
    });

    async function push(body: Record<string, unknown>, token = TOKEN): Promise<void> {
      const res = await h.request(`/api/push/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'up', ...body }),
      });
      expect(res.status).toBe(200);
      await h.ingest.flush();
    }
    /** What the receiver got since the last call, once the dispatcher sent every delivery due. */
    let read = 0;
    const received = async () => {
      await vi.waitFor(async () => {
        await h.dispatcher.tick();
        const hook = await h.opened.store.channels.findByKey(h.organizationId, 'hook');
        const deliveries = await h.opened.store.deliveries.listByChannel(hook?.id as string, 50);
        expect(deliveries.filter((d) => d.status === 'pending' || d.status === 'sending')).toEqual([]);
      });
      const events = receiver.requests.slice(read).map((r) => (r.json as { data: NotificationEvent }).data);
      read = receiver.requests.length;
      return events;
    };

    it('keeps quiet about a monitor under maintenance, as about its state', async () => {
      await push({ players: 8, maxPlayers: 8 }, HALL);
      h.clock.advance(MIN);
      await push({ players: 8, maxPlayers: 8 }, HALL);
      expect(await received()).toEqual([]);
      const hook = await h.opened.store.channels.findByKey(h.organizationId, 'hook');
      const deliveries = await h.opened.store.deliveries.listByChannel(hook?.id as string, 50);
      expect(deliveries.map((d) => [d.kind, d.status])).toEqual([['players.alert', 'skipped']]);
    });

    it('tells a server full for its hold time once, and when it is no longer full', async () => {
      await push({ players: 100, maxPlayers: 100, version: '1.0' });
      h.clock.advance(9 * MIN);
      await push({ players: 100, maxPlayers: 100, version: '1.0' });
      expect(await received()).toEqual([]);
      h.clock.advance(MIN);
      await push({ players: 100, maxPlayers: 100, version: '1.0' });
      h.clock.advance(MIN);
      await push({ players: 100, maxPlayers: 100, version: '1.0' });
      const [full, ...more] = await received();
      expect(more).toEqual([]);
      expect(full).toMatchObject({
        kind: 'players.alert',
        severity: 'warning',
        title: 'Lobby is full (100/100) for 10 min',
        playerRule: { rule: 'full' },
        monitor: { key: 'lobby', players: { online: 100, max: 100 } },
      });
      h.clock.advance(MIN);
      await push({ players: 97, maxPlayers: 100, version: '1.0' });
      expect(await received()).toMatchObject([
        { kind: 'players.ok', severity: 'ok', title: 'Lobby is no longer full (97/100)' },
      ]);
    });

    it('tells a new version as game.changed, and keeps the change under the event id', async () => {
      h.clock.advance(MIN);
      await push({ players: 3, maxPlayers: 100, version: '1.1' });
      const events = await received();
      expect(events).toMatchObject([
        {
          kind: 'game.changed',
          severity: 'info',
          title: 'Lobby: version changed to 1.1',
          gameChange: { field: 'version', from: '1.0', to: '1.1' },
        },
      ]);
      const lobby = await h.opened.store.monitors.findByKey(h.organizationId, 'lobby');
      expect(await h.opened.store.gameChanges.recent([lobby?.id as string], 0, 10)).toEqual([
        {
          id: events[0]?.id,
          organizationId: h.organizationId,
          monitorId: lobby?.id,
          field: 'version',
          from: '1.0',
          to: '1.1',
          at: h.clock.now(),
        },
      ]);
    });

    it('tells a server that answers with nobody on, when it usually has players, and when they are back', async () => {
      for (let hour = 0; hour < 6; hour++) {
        await push({ players: 12, maxPlayers: 50 }, QUIET);
        h.clock.advance(60 * MIN);
      }
      await push({ players: 0, maxPlayers: 50 }, QUIET);
      h.clock.advance(5 * MIN);
      await push({ players: 0, maxPlayers: 50 }, QUIET);
      h.clock.advance(MIN);
      await push({ players: 0, maxPlayers: 50 }, QUIET);
      const [empty, ...more] = await received();
      expect(more).toEqual([]);
      expect(empty).toMatchObject({
        kind: 'players.alert',
        title: 'Arena is up but nobody has been on for 5 min',
        reason: expect.stringContaining('it usually has 12 (the last 7 days)'),
        playerRule: { rule: 'empty' },
      });
      await push({ players: 2, maxPlayers: 50 }, QUIET);
      expect(await received()).toMatchObject([{ kind: 'players.ok', title: 'Arena has players again (2/50)' }]);
    });
  });
}
