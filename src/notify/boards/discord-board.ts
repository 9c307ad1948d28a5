// A board's message on Discord, from the page's snapshot: one embed with the page's state, its active incident (and its
// latest update) or maintenance, players online, and a field per component (state, players, version, how to join).
// What it shows is hashed without the "last updated" time, so the message is edited only when something shown changed.
//
//   { username, allowed_mentions: { parse: [] }, embeds: [{ title, url, description, color, fields[], footer, timestamp }] }
import { createHash } from 'node:crypto';
import type { Board } from '../../domain/board.js';
import type { PageState, Snapshot, SnapshotComponent } from '../../domain/snapshot.js';
import { clip, escapeMarkdown } from '../events/format.js';

/** Discord's limits on an embed (docs: Channel → Embed Limits); the whole embed's text stays under 6000. */
export const DISCORD_EMBED_LIMITS = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000,
} as const;

const LOOK: Record<PageState, { emoji: string; colour: number; word: string }> = {
  operational: { emoji: '🟢', colour: 0x2ecc71, word: 'Operational' },
  degraded: { emoji: '🟡', colour: 0xf1c40f, word: 'Degraded' },
  down: { emoji: '🔴', colour: 0xe74c3c, word: 'Down' },
  maintenance: { emoji: '🔧', colour: 0x3498db, word: 'Maintenance' },
  unknown: { emoji: '⚪', colour: 0x95a5a6, word: 'Unknown' },
};

export interface BoardMessage {
  payload: {
    username: string;
    allowed_mentions: { parse: never[] };
    embeds: DiscordEmbed[];
  };
  /** What the message shows, without its "last updated" time: equal hashes need no edit. */
  hash: string;
}

export interface DiscordEmbed {
  title: string;
  url: string;
  description: string;
  color: number;
  fields: { name: string; value: string; inline: boolean }[];
  footer: { text: string };
  timestamp?: string;
}

/** Discord's timestamp markup: each reader sees it in their own time zone (`R`: "in 2 hours"). */
const when = (at: number, style: 't' | 'f' | 'R') => `<t:${Math.floor(at / 1000)}:${style}>`;

/** The board's message as of this snapshot; `at` is the "last updated" time it shows. */
export function discordBoardMessage(snapshot: Snapshot, board: Pick<Board, 'componentIds'>, at: number): BoardMessage {
  const shown =
    board.componentIds === null
      ? snapshot.components
      : snapshot.components.filter((c) => board.componentIds?.includes(c.id));
  const fields = shown.slice(0, DISCORD_EMBED_LIMITS.fields).map(componentField);
  const overall = board.componentIds === null ? snapshot.overall.state : worst(shown.map((c) => c.state));
  const embed: DiscordEmbed = {
    title: clip(snapshot.page.title, DISCORD_EMBED_LIMITS.title),
    url: snapshot.page.url,
    description: clip(
      description(snapshot, shown, overall, board.componentIds === null),
      DISCORD_EMBED_LIMITS.description,
    ),
    color: LOOK[overall].colour,
    fields,
    footer: { text: clip(more(shown.length - fields.length), DISCORD_EMBED_LIMITS.footer) },
  };
  fitTotal(embed);
  const hash = createHash('sha256').update(JSON.stringify(embed)).digest('base64url');
  return {
    payload: {
      username: clip(snapshot.page.title, 80),
      allowed_mentions: { parse: [] },
      embeds: [{ ...embed, timestamp: new Date(at).toISOString() }],
    },
    hash,
  };
}

/** The headline of a board that shows some of the page's components: the page's own label speaks of all of them. */
const HEADLINE: Record<PageState, string> = {
  operational: 'All systems operational',
  degraded: 'Degraded performance',
  down: 'Outage',
  maintenance: 'Under maintenance',
  unknown: 'Status unknown',
};

function description(snapshot: Snapshot, shown: SnapshotComponent[], overall: PageState, whole: boolean): string {
  const headline = whole ? snapshot.overall.label : HEADLINE[overall];
  const lines = [`${LOOK[overall].emoji} **${escapeMarkdown(headline)}**`];
  const ids = new Set(shown.map((c) => c.id));
  const concerns = (components: { id: string }[]) => components.length === 0 || components.some((c) => ids.has(c.id));
  for (const incident of snapshot.activeIncidents.filter((i) => concerns(i.components)).slice(0, 3)) {
    const latest = incident.updates.at(-1);
    lines.push(
      '',
      `⚠️ **${escapeMarkdown(clip(incident.title, 200))}** — ${incident.status}, since ${when(incident.startedAt, 'R')}`,
    );
    if (latest) lines.push(`> ${escapeMarkdown(clip(latest.message, 600)).replace(/\n+/g, '\n> ')}`);
  }
  for (const window of snapshot.maintenance.active.filter((m) => concerns(m.components)).slice(0, 2))
    lines.push('', `🔧 **${escapeMarkdown(clip(window.title, 200))}** — until ${when(window.endsAt, 'f')}`);
  const next = snapshot.maintenance.upcoming.find((m) => concerns(m.components));
  if (next) lines.push('', `🗓️ Maintenance ${when(next.startsAt, 'R')}: ${escapeMarkdown(clip(next.title, 200))}`);
  const players = shown.reduce<{ online: number | null; max: number | null }>(
    (sum, c) => ({
      online: c.live?.players == null ? sum.online : (sum.online ?? 0) + c.live.players,
      max: c.live?.maxPlayers == null ? sum.max : (sum.max ?? 0) + c.live.maxPlayers,
    }),
    { online: null, max: null },
  );
  if (players.online !== null)
    lines.push('', `👥 **${players.online}${players.max === null ? '' : ` / ${players.max}`}** players online`);
  return lines.join('\n');
}

function componentField(c: SnapshotComponent): DiscordEmbed['fields'][number] {
  const look = LOOK[c.state];
  const lines = [`${look.emoji} ${look.word}`];
  const live = c.live;
  if (live?.players != null) lines.push(`👥 ${live.players}${live.maxPlayers == null ? '' : `/${live.maxPlayers}`}`);
  if (live?.version) lines.push(`🏷️ ${escapeMarkdown(clip(live.version, 60))}`);
  const badges = c.badges.map((b) => BADGE[b.kind](b.count)).filter(Boolean);
  if (badges.length > 0) lines.push(badges.join(' · '));
  // Discord links only http(s): a steam:// link is shown as the address to type in the console.
  if (c.join?.kind === 'link' && c.join.url) lines.push(`▶️ [Join](${c.join.url})`);
  else if (c.join) lines.push(`\`${clip((c.join.address ?? c.join.label).replace(/`/g, ''), 100)}\``);
  const names = live?.playerNames;
  if (names && names.length > 0) lines.push(clip(names.map((n) => escapeMarkdown(n)).join(', '), 400));
  return {
    name: clip(c.group ? `${c.group} · ${c.name}` : c.name, DISCORD_EMBED_LIMITS.fieldName),
    value: clip(lines.join('\n'), DISCORD_EMBED_LIMITS.fieldValue),
    inline: true,
  };
}

/** The join badges as the board words them. */
const BADGE: Record<SnapshotComponent['badges'][number]['kind'], (count?: number) => string> = {
  full: () => '⛔ Full',
  password: () => '🔒 Password',
  whitelist: () => '📋 Whitelist',
  queue: (count) => (count ? `⏳ ${count} in queue` : '⏳ Queue'),
};

const ORDER: PageState[] = ['down', 'degraded', 'maintenance', 'unknown', 'operational'];
function worst(states: PageState[]): PageState {
  if (states.length === 0) return 'unknown';
  return ORDER.find((s) => states.includes(s)) ?? 'operational';
}

const more = (hidden: number) => (hidden > 0 ? `and ${hidden} more on the page · Warden` : 'Warden · last updated');

/** Discord refuses an embed over 6000 characters: the description gives way first, then the last fields. */
function fitTotal(embed: DiscordEmbed): void {
  const size = () =>
    embed.title.length +
    embed.description.length +
    embed.footer.text.length +
    embed.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  if (size() > DISCORD_EMBED_LIMITS.total)
    embed.description = clip(
      embed.description,
      Math.max(200, embed.description.length - (size() - DISCORD_EMBED_LIMITS.total)),
    );
  while (size() > DISCORD_EMBED_LIMITS.total && embed.fields.length > 0) embed.fields.pop();
}
