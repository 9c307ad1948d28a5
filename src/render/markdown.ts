// The Markdown form of a status page: plain text that people and language models read alike.
import type { Snapshot, SnapshotComponent, SnapshotIncident, SnapshotMaintenance } from '../domain/snapshot.js';
import { gameChangeText, gameChangeWas } from './game-changes.js';
import { type MessageKey, type MessageValues, type Translator, translator } from './i18n/index.js';
import {
  countText,
  durationText,
  impactWord,
  incidentStatusWord,
  overallLabel,
  playersWithNoun,
  stateWord,
  uptimeText,
} from './i18n/wording.js';
import { groupComponents, isoTime, plainText } from './page-wording.js';

export interface MarkdownRendering {
  contentType: 'text/markdown; charset=utf-8';
  body: string;
}

/**
 * How the blocks write words and times: the reader's language, and times in the page's zone (the page's Markdown),
 * or ISO 8601 (the MCP incident list, read by machines).
 */
export interface MarkdownWording {
  i18n: Translator;
  time(ms: number): string;
}

/** English with ISO 8601 UTC times: for machines (the MCP incident list). */
export const MACHINE_WORDING: MarkdownWording = { i18n: translator('en', 'UTC'), time: isoTime };

/**
 * The page as Markdown, in the reader's language with times in the page's time zone (`i18n`; the page's own language,
 * else English, when left out); the same snapshot always gives the same bytes.
 */
export function renderMarkdown(snapshot: Snapshot, options: { i18n?: Translator } = {}): MarkdownRendering {
  const i18n = options.i18n ?? translator(snapshot.page.language ?? undefined, snapshot.page.timeZone);
  const wording: MarkdownWording = { i18n, time: (ms) => i18n.dateTime(ms) };
  const blocks = [
    header(wording, snapshot),
    activeIncidents(wording, snapshot.activeIncidents),
    maintenance(wording, snapshot.maintenance),
    gameChanges(wording, snapshot.gameChanges),
    components(wording, snapshot.components),
    recentIncidents(wording, snapshot.recentIncidents, snapshot.activeIncidents.length),
    `---\n\n${words(i18n, 'md.generated', { time: i18n.dateTime(snapshot.generatedAt), zone: i18n.timeZone })}`,
  ];
  return {
    contentType: 'text/markdown; charset=utf-8',
    body: blocks.filter((block) => block !== '').join('\n\n') + '\n',
  };
}

/**
 * User text escaped for inline Markdown (a heading, a list item, a table cell): whitespace collapsed, and every
 * character that could open emphasis, code, a link, raw HTML, an entity or a table cell backslashed. Brackets are
 * enough to stop links and images, so "(" and "!" stay readable.
 */
export function escapeMarkdown(text: string): string {
  return escapeMarkdownCharacters(plainText(text));
}

function escapeMarkdownCharacters(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, '\\$&').replace(/&(?=#?\w+;)/g, '\\&');
}

/** User text that begins a line: it must also not start a list, a heading, a quote or a rule. */
function escapeMarkdownLine(text: string): string {
  return escapeMarkdown(text)
    .replace(/^([-+=])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

/** Multi-line user text (an update message) as indented continuation lines of a list item. */
function escapeMarkdownBlock(text: string, indent: string): string {
  return plainText(text, { multiline: true })
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => indent + escapeMarkdownLine(line))
    .join('\n');
}

/**
 * A message in Markdown: its words escaped as user text is (a translation may hold "*", "_" or "|"), with `values`
 * (ours: numbers, dates) escaped along and `user` arguments (user text) escaped on their own.
 */
function words(
  i18n: Translator,
  key: MessageKey,
  values: MessageValues = {},
  user: Record<string, string> = {},
): string {
  const names = Object.keys(user);
  const all: MessageValues = { ...values };
  names.forEach((name, index) => {
    all[name] = `\ue000${index}\ue001`;
  });
  const text = escapeMarkdownCharacters(plainText(i18n.t(key, all)));
  return names.length === 0
    ? text
    : text.replace(/\ue000(\d+)\ue001/g, (_, index: string) =>
        escapeMarkdown(user[names[Number(index)] as string] ?? ''),
      );
}

function header({ i18n }: MarkdownWording, snapshot: Snapshot): string {
  const lines = [`# ${escapeMarkdown(snapshot.page.title)}`];
  if (snapshot.page.description) lines.push('', escapeMarkdownLine(snapshot.page.description));
  const label = overallLabel(i18n, plainText(snapshot.overall.label));
  lines.push(
    '',
    `**${words(i18n, 'md.overallStatus', { state: stateWord(i18n, snapshot.overall.state) })}** — ${escapeMarkdown(label)}`,
  );
  const { players, maxPlayers } = snapshot.totals;
  if (players !== null)
    lines.push(
      '',
      maxPlayers === null
        ? words(i18n, 'md.playersOnline', { count: countText(i18n, players) })
        : words(i18n, 'md.playersOnlineOfMax', { count: countText(i18n, players), max: countText(i18n, maxPlayers) }),
    );
  lines.push('', `${words(i18n, 'md.page')} <${snapshot.page.url.replace(/[<>\s]/g, encodeURIComponent)}>`);
  return lines.join('\n');
}

function components(wording: MarkdownWording, list: SnapshotComponent[]): string {
  const { i18n } = wording;
  const lines = [`## ${words(i18n, 'components.title')}`];
  if (list.length === 0) return [...lines, '', `_${words(i18n, 'components.none')}_`].join('\n');
  const groups = groupComponents(list);
  const named = groups.some((g) => g.group !== null);
  const columns = (
    ['md.columnComponent', 'md.columnStatus', 'md.columnUptime30d', 'md.columnUptime90d', 'md.columnLive'] as const
  ).map((key) => words(i18n, key));
  for (const { group, components: members } of groups) {
    if (named) lines.push('', `### ${group === null ? words(i18n, 'components.otherGroup') : escapeMarkdown(group)}`);
    lines.push('', `| ${columns.join(' | ')} |`, '| --- | --- | --- | --- | --- |');
    for (const component of members) lines.push(componentRow(wording, component));
  }
  return lines.join('\n');
}

function componentRow(wording: MarkdownWording, component: SnapshotComponent): string {
  const { i18n } = wording;
  const name =
    escapeMarkdown(component.name) + (component.description ? ` — ${escapeMarkdown(component.description)}` : '');
  const since =
    component.since !== null && component.state !== 'operational'
      ? ` ${words(i18n, 'components.since', { time: wording.time(component.since) })}`
      : '';
  // On a page that shows it: "(unreachable: Router is down)" after the state.
  const held = component.unreachable
    ? ` (${words(i18n, 'page.component.unreachable', {}, { parent: component.unreachable.parent })})`
    : '';
  const cells = [
    name,
    escapeMarkdown(stateWord(i18n, component.state)) + since + held,
    escapeMarkdown(uptimeText(i18n, component.uptime['30d'])),
    escapeMarkdown(uptimeText(i18n, component.uptime['90d'])),
    [liveFacts(wording, component), joinFacts(wording, component)].filter(Boolean).join('; ') || '—',
  ];
  return `| ${cells.join(' | ')} |`;
}

/** How to join, as text (a Markdown reader has no button): the link or the address, and the badges' words. */
function joinFacts({ i18n }: MarkdownWording, { join, badges }: SnapshotComponent): string {
  const facts = join ? [words(i18n, 'join.markdown', {}, { target: join.url ?? join.address ?? join.label })] : [];
  for (const badge of badges)
    facts.push(
      words(i18n, badge.kind === 'queue' ? 'join.badge.queue' : `join.badge.${badge.kind}`, {
        count: badge.count ?? 0,
      }),
    );
  return facts.join('; ');
}

function liveFacts(wording: MarkdownWording, component: SnapshotComponent): string {
  const { i18n } = wording;
  const live = component.live;
  if (!live) return '';
  const facts: string[] = [];
  const players = playersWithNoun(i18n, live.players, live.maxPlayers);
  if (players) facts.push(escapeMarkdown(players));
  if (live.latencyMs !== null) facts.push(words(i18n, 'md.latency', { ms: Math.round(live.latencyMs) }));
  if (live.version) facts.push(words(i18n, 'md.version', {}, { version: live.version }));
  if (live.motd) facts.push(words(i18n, 'md.motd', {}, { motd: live.motd }));
  if (live.message) facts.push(words(i18n, 'md.note', {}, { note: live.message }));
  if (live.checkedAt !== null) facts.push(words(i18n, 'md.checked', { time: wording.time(live.checkedAt) }));
  return facts.join('; ');
}

/** A page's game changes, newest first, when it announces them. */
function gameChanges({ i18n, time }: MarkdownWording, changes: Snapshot['gameChanges']): string {
  if (!changes || changes.length === 0) return '';
  const line = (change: NonNullable<Snapshot['gameChanges']>[number]) => {
    const was = gameChangeWas(i18n, change);
    return `- ${escapeMarkdown(gameChangeText(i18n, change))}${was === null ? '' : ` (${escapeMarkdown(was)})`} · ${escapeMarkdown(time(change.at))}`;
  };
  return [`## ${words(i18n, 'gameChanges.title')}`, changes.map(line).join('\n')].join('\n\n');
}

function activeIncidents(wording: MarkdownWording, incidents: SnapshotIncident[]): string {
  if (incidents.length === 0) return '';
  return [
    `## ${words(wording.i18n, 'incidents.active')}`,
    ...incidents.map((incident) => incidentBlock(incident, wording)),
  ].join('\n\n');
}

/** `activeCount`: with an incident open above, "no incidents" would contradict it: the history says none resolved. */
function recentIncidents(wording: MarkdownWording, incidents: SnapshotIncident[], activeCount: number): string {
  const head = `## ${words(wording.i18n, 'md.recentTitle')}`;
  if (incidents.length === 0)
    return `${head}\n\n_${words(wording.i18n, activeCount > 0 ? 'page.history.noneResolved' : 'incidents.noneRecent')}_`;
  return [head, ...incidents.map((incident) => incidentBlock(incident, wording))].join('\n\n');
}

/**
 * One incident as a `###` block: facts, affected components, updates newest first. The MCP incident list uses it too,
 * in English with ISO times (MACHINE_WORDING, the default).
 */
export function incidentBlock(incident: SnapshotIncident, wording: MarkdownWording = MACHINE_WORDING): string {
  const { i18n, time } = wording;
  const facts = [
    words(i18n, 'md.status', { status: incidentStatusWord(i18n, incident.status) }),
    escapeMarkdown(impactWord(i18n, incident.impact)),
    words(i18n, 'incidents.started', { time: time(incident.startedAt) }),
  ];
  if (incident.resolvedAt !== null)
    facts.push(
      words(i18n, 'md.resolvedLasted', {
        time: time(incident.resolvedAt),
        duration: durationText(i18n, incident.resolvedAt - incident.startedAt),
      }),
    );
  const lines = [`### ${escapeMarkdown(incident.title)}`, '', facts.join(' · ')];
  if (incident.components.length > 0) lines.push('', affects(i18n, incident.components));
  // Newest first: the latest word is what a reader came for.
  const updates = [...incident.updates].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
  if (updates.length > 0) {
    lines.push('');
    for (const update of updates) {
      const message = escapeMarkdownBlock(update.message, '  ');
      lines.push(
        `- ${escapeMarkdown(time(update.at))} — **${escapeMarkdown(incidentStatusWord(i18n, update.status))}**` +
          (message ? `\n${message}` : ''),
      );
    }
  }
  return lines.join('\n');
}

/** "Affects: a, b", the names escaped. */
function affects(i18n: Translator, components: { name: string }[]): string {
  return words(i18n, 'common.affects', {}, { components: components.map((c) => plainText(c.name)).join(', ') });
}

function maintenance(wording: MarkdownWording, windows: Snapshot['maintenance']): string {
  if (windows.active.length === 0 && windows.upcoming.length === 0) return '';
  const { i18n } = wording;
  const lines = [`## ${words(i18n, 'incidents.maintenance')}`];
  const item = (window: SnapshotMaintenance) => maintenanceItem(wording, window);
  if (windows.active.length > 0)
    lines.push('', `### ${words(i18n, 'incidents.inProgress')}`, '', ...windows.active.map(item));
  if (windows.upcoming.length > 0)
    lines.push('', `### ${words(i18n, 'md.upcoming')}`, '', ...windows.upcoming.map(item));
  return lines.join('\n');
}

function maintenanceItem({ i18n, time }: MarkdownWording, window: SnapshotMaintenance): string {
  const span = words(i18n, 'incidents.window', { start: time(window.startsAt), end: time(window.endsAt) });
  const parts = [`- **${escapeMarkdown(window.title)}** — ${span}`];
  if (window.repeats !== null) parts.push(words(i18n, 'common.repeats', {}, { schedule: plainText(window.repeats) }));
  if (window.components.length > 0) parts.push(`${affects(i18n, window.components)}.`);
  const description = window.description ? escapeMarkdownBlock(window.description, '  ') : '';
  return parts.join('. ') + (description ? `\n${description}` : '');
}
