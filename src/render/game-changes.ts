// A page's game changes (version, map, wipe) as every form words them: a line of text, the HTML announcement. Only a
// page that announces them has any (snapshot.gameChanges); the feed and Markdown take their words from here too.
import type { SnapshotGameChange } from '../domain/snapshot.js';
import { escapeHtml, timeHtml } from './html-layout.js';
import type { Translator } from './i18n/index.js';
import { plainText } from './page-wording.js';

/** "Map changed to de_dust2 on Survival", "Rust Main was wiped": plain text (callers escape it for their format). */
export function gameChangeText(i18n: Translator, change: SnapshotGameChange): string {
  const components = change.components.map((c) => plainText(c.name)).join(', ');
  if (change.field === 'wipe') return i18n.t('gameChanges.wipe', { components });
  return i18n.t(change.field === 'map' ? 'gameChanges.map' : 'gameChanges.version', {
    to: plainText(change.to),
    components,
  });
}

/** What it was before, for a version or a map ("was de_inferno"); a wipe's time before says little to a player. */
export function gameChangeWas(i18n: Translator, change: SnapshotGameChange): string | null {
  return change.field === 'wipe' ? null : i18n.t('gameChanges.was', { from: plainText(change.from) });
}

/** The announcement on the HTML page: each change and how long ago; nothing when there is none (or the page has it off). */
export function gameChangesHtml(i18n: Translator, changes: SnapshotGameChange[] | undefined): string {
  if (!changes || changes.length === 0) return '';
  const items = changes.map((change) => {
    const was = gameChangeWas(i18n, change);
    return (
      `<li>${escapeHtml(gameChangeText(i18n, change))}` +
      (was === null ? '' : ` <span class="was">(${escapeHtml(was)})</span>`) +
      ` · ${timeHtml(i18n, change.at, ' data-relative')}</li>`
    );
  });
  return (
    '<section class="block" aria-labelledby="game-changes-title">' +
    `<h2 id="game-changes-title">${escapeHtml(i18n.t('gameChanges.title'))}</h2>` +
    `<div class="card"><ul class="changes">${items.join('')}</ul></div></section>`
  );
}
