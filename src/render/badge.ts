// The badge form of a page: a shields-style SVG (badge-maker, the shields.io renderer) with the overall state or players online.
import { createRequire } from 'node:module';
import type { Format } from 'badge-maker';
import { PAGE_STATES, type PageState, type Snapshot } from '../domain/snapshot.js';
import { installLazyBadgeWidths } from './badge-widths.js';
import { STATE_COLOUR } from './html-layout.js';
import { formatCount, plainText } from './page-wording.js';

export interface BadgeRendering {
  contentType: 'image/svg+xml; charset=utf-8';
  body: string;
}

export const BADGE_STYLES = ['flat', 'flat-square', 'plastic', 'for-the-badge', 'social'] as const;
export type BadgeStyle = (typeof BADGE_STYLES)[number];
/** A longer ?label= is cut: a badge is a few words. */
export const BADGE_LABEL_MAX_CHARS = 64;

/** The message for each overall state: shields badges speak in short lower-case words, the state's own name. */
export const BADGE_MESSAGE = Object.fromEntries(PAGE_STATES.map((state) => [state, state])) as Record<
  PageState,
  string
>;

/**
 * Query options, normalized: `players` (a flag: present, with any value but false/0/no/off), `label` (any text,
 * cleaned and cut; empty means no label part), `style` (one of the shields styles; anything else is ignored).
 */
export function badgeOptions(query: URLSearchParams): Record<string, string> {
  const options: Record<string, string> = {};
  const players = query.get('players');
  if (players !== null && !/^(false|0|no|off)$/i.test(players)) options.players = '1';
  const label = query.get('label');
  if (label !== null) options.label = [...plainText(label)].slice(0, BADGE_LABEL_MAX_CHARS).join('');
  const style = query.get('style');
  if (style !== null && (BADGE_STYLES as readonly string[]).includes(style)) options.style = style;
  return options;
}

/**
 * Label: the page's title, or the `label` option. Message: the overall state, or with `players` the online count
 * ("42/100 online", "42 online" without a capacity; the state when the page reports no players). Coloured by state.
 */
export function renderBadge(snapshot: Snapshot, options: Record<string, string>): BadgeRendering {
  const state = snapshot.overall.state;
  const { players, maxPlayers } = snapshot.totals;
  const message =
    options.players && players !== null
      ? `${formatCount(players)}${maxPlayers === null ? '' : `/${formatCount(maxPlayers)}`} online`
      : BADGE_MESSAGE[state];
  const label = options.label ?? (plainText(snapshot.page.title) || snapshot.page.slug);
  const body = badgeMaker()({
    label,
    message,
    color: STATE_COLOUR[state],
    style: (options.style as BadgeStyle | undefined) ?? 'flat',
  });
  return { contentType: 'image/svg+xml; charset=utf-8', body };
}

let loaded: ((format: Format) => string) | undefined;

/**
 * badge-maker, required on the first badge asked for: its colour parser and font-width tables (1 MB of JSON, each
 * table built when a badge first needs it) cost start-up time and MiB that a server whose badges nobody embeds never
 * needs. Synchronous: a form renders synchronously, and a CommonJS package loads in one call.
 */
function badgeMaker(): (format: Format) => string {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    // Its width tables one font at a time, on first use (badge-widths.ts).
    installLazyBadgeWidths(require, require.resolve('badge-maker'));
    loaded = (require('badge-maker') as typeof import('badge-maker')).makeBadge;
  }
  return loaded;
}
