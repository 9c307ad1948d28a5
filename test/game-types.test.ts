// Join actions, who is online and the player rules on every game type, the whole way: the type's probe against its fake
// (test/game-type-cases.ts) → ingest into each dialect's store → the status page's HTML and the notification outbox.
// The clock is the harness's: hours of history and minutes of a full server pass without waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckSource } from '../src/domain/monitor-type.js';
import type { Snapshot } from '../src/domain/snapshot.js';
import { ANY_TARGET } from '../src/net/target-guard.js';
import { probeDefinition } from '../src/probes/registry.js';
import { runProbe } from '../src/probes/run.js';
import { type Harness, startHarness } from './app-harness.js';
import {
  FIVEM_WITHOUT_JOIN_CODE,
  GAME_TYPE_CASES,
  type GameScene,
  type GameServerFake,
  type GameTypeCase,
} from './game-type-cases.js';
import { type DialectCase, dialects } from './store-dialects.js';
import { until } from './until.js';

const HOSTILE = '<img src=x onerror=alert(1)>';
const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;';
const MIN = 60_000;
// Generous for a loaded machine: the fakes answer at once, so only a starved process comes near these.
const PROBE_TIMEOUT_MS = 10_000;
const PAGE_WAIT_MS = 15_000;
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

const BASE: GameScene = {
  players: 5,
  max: 10,
  names: ['Ann', HOSTILE, 'Bob', 'Cy', 'Di'],
  version: '1.0.0.7290',
  map: 'de_dust2',
  queue: 0,
  password: false,
};
const FULL: GameScene = {
  ...BASE,
  players: 10,
  names: [...BASE.names, 'Ed', 'Flo', 'Gus', 'Hal', 'Ida'],
  queue: 5,
  password: true,
};
const FEW: GameScene = { ...BASE, players: 1, names: ['Ann'] };
const NOBODY: GameScene = { ...BASE, players: 0, names: [] };
const UPDATED: GameScene = { ...BASE, version: '1.0.0.8000', map: 'de_inferno' };

const yaml = (monitor: GameServerFake['monitor']) => `
organization: { key: games, name: Games }
relays:
  - { key: lab, name: Lab }
monitors:
  - key: game
    name: Game
    type: ${monitor.type}
    ${monitor.runOn ? 'runOn: relay\n    relay: lab' : ''}
    config: ${JSON.stringify(monitor.config)}
    playerAlerts:
      { fullForMin: 5, queueAbove: 3, band: { min: 2 }, emptyFromUsual: true, forMin: 5, changes: [version, map] }
notifications:
  - { key: hook, name: Hook, type: webhook, config: { url: "https://hooks.example.com/warden", secret: "${SECRET}" } }
pages:
  - { slug: shown, title: Shown, showPlayerNames: true, components: [{ name: Game, monitor: game }] }
  - { slug: hidden, title: Hidden, components: [{ name: Game, monitor: game }] }
`;

for (const dialect of dialects)
  for (const game of GAME_TYPE_CASES)
    describe.skipIf(!dialect.available)(`${game.name} on ${dialect.name}`, () => {
      const t = gameTypeRun(dialect, game);
      if (game.reports.players) playerTests(game, t);
      else
        it('reports no players: no join, no badges, no names and no player alerts', async () => {
          for (const step of [0, 5, 5]) await t.check(FULL, step);
          // The panel's answer, as the snapshot gives it: the page shows the latest check.
          const json = await t.page('shown/status.json', (text) => text.includes('"message":"running, CPU'));
          const snapshot = JSON.parse(json) as Snapshot;
          const html = await t.page('shown');
          expect(snapshot.components[0]?.join ?? null).toBeNull();
          expect(snapshot.components[0]?.badges).toEqual([]);
          expect(html).not.toContain('data-testid="join"');
          expect(html).not.toContain('class="who"');
          expect(await t.told()).toEqual([]);
        });
    });

/** What the page says of a check: its players out of its maximum. */
const showing = (scene: GameScene) => (html: string) => html.includes(`${scene.players} / ${scene.max}`);

function playerTests(game: GameTypeCase, t: GameTypeRun & { fake(): GameServerFake }): void {
  it('shows how to join, and no badges, while the server has room', async () => {
    // Six hours of its usual players: the history an empty server is measured against.
    for (let hour = 0; hour < 6; hour++) await t.check(BASE, hour === 0 ? 0 : 60);
    expect(await t.told()).toEqual([]);
    const html = await t.page('shown', showing(BASE));
    const join = game.joinHtml(t.fake());
    const embed = await t.page('shown/embed?component=Game');
    for (const form of [html, embed]) {
      if (join) expect(form).toContain(join);
      else expect(form).not.toMatch(/data-testid="join-(link|copy)"/);
      expect(form).not.toContain('data-badge=');
    }
    const snapshot = JSON.parse(await t.page('shown/status.json')) as Snapshot;
    expect(snapshot.components[0]?.join?.kind ?? 'none').toBe(game.join);
  });

  it(`lists ${game.reports.names ? 'who is online, escaped, on the page that shows names only' : 'nobody: the type reports no names'}`, async () => {
    const shown = await t.page('shown', showing(BASE));
    const hidden = await t.page('hidden', showing(BASE));
    for (const html of [shown, hidden]) expect(html).not.toContain(HOSTILE);
    expect(hidden).not.toContain('class="who"');
    expect(hidden).not.toContain(ESCAPED);
    if (!game.reports.names) return expect(shown).not.toContain('class="who"');
    const embed = await t.page('shown/embed?component=Game');
    for (const form of [shown, embed]) {
      expect(form).toContain('<summary>5 online</summary>');
      expect(form).toContain(`<li>Ann</li><li>${ESCAPED}</li>`);
      expect(form).not.toContain(HOSTILE);
    }
  });

  it('tells a server full for fullForMin once, shows the badges the type knows, and tells when it has room', async () => {
    const rules = ['full', ...(game.reports.queue ? ['queue'] : [])];
    await t.check(FULL, 60);
    await t.check(FULL, 4);
    expect(await t.told()).toEqual([]);
    await t.check(FULL, 1);
    expect(await t.told()).toEqual(rules.map((rule) => `players.alert ${rule}`));
    await t.check(FULL, 1);
    expect(await t.told()).toEqual([]);
    const html = await t.page('shown', showing(FULL));
    const badges = [...html.matchAll(/data-badge="(\w+)">([^<]*)</g)].map((m) => `${m[1]}: ${m[2]}`);
    expect(badges).toEqual([
      'full: Full',
      ...(game.reports.password ? ['password: Password'] : []),
      ...(game.reports.queue ? ['queue: 5 in queue'] : []),
    ]);
    await t.check(BASE, 1);
    expect(await t.told()).toEqual(rules.map((rule) => `players.ok ${rule}`));
  });

  it('tells players below the band, then a server up with nobody on when it usually has players', async () => {
    await t.check(FEW, 60);
    await t.check(FEW, 5);
    expect(await t.told()).toEqual(['players.alert band']);
    await t.check(NOBODY, 1);
    await t.check(NOBODY, 5);
    expect(await t.told()).toEqual(['players.alert empty']);
    await t.check(BASE, 1);
    expect(await t.told()).toEqual(['players.ok band', 'players.ok empty']);
  });

  it('announces a new version or map as game.changed, for what the type reports', async () => {
    await t.check(UPDATED, 1);
    const fields = (['map', 'version'] as const).filter((field) => game.reports[field]);
    expect(await t.told()).toEqual(fields.map((field) => `game.changed ${field}`));
  });
}

describe('fivem without a join code', () => {
  const game = FIVEM_WITHOUT_JOIN_CODE;
  const t = gameTypeRun(dialects[0] as DialectCase, game);
  it('offers the F8 console command to copy instead of a cfx.re link', async () => {
    await t.check(BASE, 0);
    const html = await t.page('shown', showing(BASE));
    expect(html).toContain(`data-testid="join-copy" ${game.joinHtml(t.fake())}`);
    expect(html).not.toContain('cfx.re/join');
  });
});

interface GameTypeRun {
  /** Moves the clock `afterMin` minutes, shows `scene`, runs the probe and stores its result. */
  check(scene: GameScene, afterMin: number): Promise<void>;
  /** A form of a page (`shown`, `shown/status.json`…) once `ready` holds of it (a snapshot is rebuilt a moment after a check). */
  page(path: string, ready?: (text: string) => boolean): Promise<string>;
  /** The player events queued for the channel since the last call, as "kind rule-or-field", sorted. */
  told(): Promise<string[]>;
}

function gameTypeRun(dialect: DialectCase, game: GameTypeCase): GameTypeRun & { fake(): GameServerFake } {
  let h: Harness;
  let fake: GameServerFake;
  const seen = new Set<string>();
  beforeAll(async () => {
    fake = await game.start(BASE);
    h = await startHarness(dialect, yaml(fake.monitor));
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  return {
    fake: () => fake,
    async check(scene, afterMin) {
      h.clock.advance(afterMin * MIN);
      fake.set(scene);
      const monitor = h.monitors.game;
      if (!monitor) throw new Error('the monitor was not seeded');
      const result = await runProbe(probeDefinition(monitor.type), monitor.config, {
        timeoutMs: PROBE_TIMEOUT_MS,
        guard: ANY_TARGET,
      });
      expect(result.ok, result.error).toBe(true);
      const source: CheckSource = fake.monitor.runOn ?? 'edge';
      const stored = h.ingest.record({ ...result, monitorId: monitor.id, checkedAt: h.clock.now(), source });
      await h.ingest.flush();
      expect(await stored).toMatchObject({ stored: true });
    },
    async page(path, ready = () => true) {
      return until(
        `/s/${path} to show the latest check`,
        async () => {
          const text = await (await h.request(`/s/${path}`)).text();
          return ready(text) && text;
        },
        PAGE_WAIT_MS,
      );
    },
    async told() {
      const hook = await h.opened.store.channels.findByKey(h.organizationId, 'hook');
      const deliveries = await h.opened.store.deliveries.listByChannel(hook?.id as string, 500);
      const fresh = deliveries.filter((d) => !seen.has(d.id) && /^(players\.|game\.)/.test(d.kind));
      for (const d of fresh) seen.add(d.id);
      return fresh
        .map((d) => {
          const event = JSON.parse(d.event) as { playerRule?: { rule: string }; gameChange?: { field: string } };
          return `${d.kind} ${event.playerRule?.rule ?? event.gameChange?.field}`;
        })
        .sort();
    },
  };
}
