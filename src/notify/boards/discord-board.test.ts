import { describe, expect, it } from 'vitest';
import { component, FIXTURE_NOW, snapshotOf } from '../../../test/fakes/snapshot-parts.js';
import {
  activeIncidentSnapshot,
  largeSnapshot,
  maintenanceSnapshot,
  operationalSnapshot,
  partialOutageSnapshot,
} from '../../../test/fakes/snapshots.js';
import { DISCORD_EMBED_LIMITS, discordBoardMessage } from './discord-board.js';

const ALL = { componentIds: null };
const embedOf = (message: ReturnType<typeof discordBoardMessage>) => message.payload.embeds[0]!;
const size = (e: ReturnType<typeof embedOf>) =>
  e.title.length +
  e.description.length +
  e.footer.text.length +
  e.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);

describe('a Discord board message', () => {
  it('shows the page, a field per server with its players and version, and mentions nobody', () => {
    const message = discordBoardMessage(operationalSnapshot(), ALL, FIXTURE_NOW);
    const embed = embedOf(message);
    expect(message.payload.allowed_mentions).toEqual({ parse: [] });
    expect(embed.color).toBe(0x2ecc71);
    expect(embed.description.split('\n')[0]).toBe('🟢 **All systems operational**');
    expect(embed.fields.length).toBe(operationalSnapshot().components.length);
    const withPlayers = embed.fields.find((f) => f.value.includes('👥'));
    expect(withPlayers?.value).toMatch(/^🟢 Operational\n👥 \d+\/\d+/);
    expect(embed.timestamp).toBe(new Date(FIXTURE_NOW).toISOString());
  });

  it("takes the page's colour (yellow for a partial outage, red for a down server alone) and names the active incident", () => {
    const partial = partialOutageSnapshot();
    expect(partial.overall.state).toBe('degraded');
    expect(embedOf(discordBoardMessage(partial, ALL, FIXTURE_NOW)).color).toBe(0xf1c40f);
    const down = partial.components.find((c) => c.state === 'down')!;
    expect(embedOf(discordBoardMessage(partial, { componentIds: [down.id] }, FIXTURE_NOW)).color).toBe(0xe74c3c);
    const snapshot = activeIncidentSnapshot();
    const incident = snapshot.activeIncidents[0]!;
    const description = embedOf(discordBoardMessage(snapshot, ALL, FIXTURE_NOW)).description;
    expect(description).toContain(`⚠️ **${incident.title}**`);
    expect(description).toContain(`<t:${Math.floor(incident.startedAt / 1000)}:R>`);
  });

  it('shows maintenance in progress until its end, in each reader’s own time zone', () => {
    const snapshot = maintenanceSnapshot();
    const window = snapshot.maintenance.active[0]!;
    expect(embedOf(discordBoardMessage(snapshot, ALL, FIXTURE_NOW)).description).toContain(
      `🔧 **${window.title}** — until <t:${Math.floor(window.endsAt / 1000)}:f>`,
    );
  });

  it('is the same message, and hash, at another time while nothing shown changed', () => {
    const a = discordBoardMessage(operationalSnapshot(), ALL, FIXTURE_NOW);
    const b = discordBoardMessage(operationalSnapshot(), ALL, FIXTURE_NOW + 60_000);
    expect(b.hash).toBe(a.hash);
    expect(discordBoardMessage(partialOutageSnapshot(), ALL, FIXTURE_NOW).hash).not.toBe(a.hash);
  });

  it('keeps to Discord’s limits: 25 fields, the rest counted in the footer, 6000 characters in all', () => {
    const embed = embedOf(discordBoardMessage(largeSnapshot(), ALL, FIXTURE_NOW));
    expect(embed.fields).toHaveLength(25);
    expect(embed.footer.text).toBe('and 25 more on the page · Warden');
    const long = 'x'.repeat(5000);
    const huge = snapshotOf(
      Array.from({ length: 25 }, (_, i) => component({ id: `c${i}`, name: long, description: null })),
      {},
    );
    const fitted = embedOf(discordBoardMessage({ ...huge, page: { ...huge.page, title: long } }, ALL, FIXTURE_NOW));
    expect(fitted.title.length).toBeLessThanOrEqual(DISCORD_EMBED_LIMITS.title);
    expect(fitted.fields.every((f) => f.name.length <= DISCORD_EMBED_LIMITS.fieldName)).toBe(true);
    expect(size(fitted)).toBeLessThanOrEqual(DISCORD_EMBED_LIMITS.total);
  });

  it('shows only the chosen servers, headed by their own state', () => {
    const snapshot = partialOutageSnapshot();
    const up = snapshot.components.find((c) => c.state === 'operational')!;
    const embed = embedOf(discordBoardMessage(snapshot, { componentIds: [up.id] }, FIXTURE_NOW));
    expect(embed.fields.map((f) => f.name)).toEqual([up.group ? `${up.group} · ${up.name}` : up.name]);
    expect(embed.description.split('\n')[0]).toBe('🟢 **All systems operational**');
    expect(embed.color).toBe(0x2ecc71);
  });

  it('escapes Discord markdown in what servers and incidents say', () => {
    const snapshot = snapshotOf([component({ id: 'a', name: 'Lobby', description: null })], {});
    const tricky = {
      ...snapshot,
      components: [
        { ...snapshot.components[0]!, live: { ...snapshot.components[0]!.live!, version: '**1.21** @everyone' } },
      ],
    };
    const value = embedOf(discordBoardMessage(tricky as typeof snapshot, ALL, FIXTURE_NOW)).fields[0]!.value;
    expect(value).toContain('\\*\\*1.21\\*\\*');
  });

  it('says how to join, what stops players joining, and who is online where the page shows names', () => {
    const snapshot = snapshotOf([component({ id: 'mc', name: 'Survival', description: null })], {});
    const base = snapshot.components[0]!;
    const mc = {
      ...base,
      live: { ...base.live!, players: 20, maxPlayers: 20, playerNames: ['Alex', 'Steve_*'] },
      join: { kind: 'copy' as const, label: 'play.example.com', address: 'play.example.com' },
      badges: [{ kind: 'full' as const }, { kind: 'queue' as const, count: 4 }],
    };
    const field = embedOf(discordBoardMessage({ ...snapshot, components: [mc] }, ALL, FIXTURE_NOW)).fields[0]!.value;
    expect(field).toContain('👥 20/20');
    expect(field).toContain('⛔ Full · ⏳ 4 in queue');
    expect(field).toContain('`play.example.com`');
    expect(field).toContain('Alex, Steve\\_\\*');
    const steam = {
      ...mc,
      join: {
        kind: 'steam' as const,
        label: '10.0.0.5:27015',
        address: '10.0.0.5:27015',
        url: 'steam://connect/10.0.0.5:27015',
      },
    };
    const steamField = embedOf(discordBoardMessage({ ...snapshot, components: [steam] }, ALL, FIXTURE_NOW)).fields[0]!
      .value;
    expect(steamField).toContain('`10.0.0.5:27015`');
    expect(steamField).not.toContain('steam://');
  });
});
