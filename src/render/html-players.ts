// Who is online, on the HTML page and in the widget: a disclosure "12 online" that opens to the names, each escaped.
// Only a page that shows player names has them in its snapshot (services/pages/assemble-snapshot.ts), so the markup
// follows the snapshot: no names, nothing here.
import type { SnapshotComponent } from '../domain/snapshot.js';
import { escapeHtml } from './html-layout.js';
import type { Translator } from './i18n/index.js';

/**
 * `<details>` with a `<summary>`: opened and closed by keyboard (Enter, Space) and screen readers without a script.
 * The id lets the page script keep it open when the live stream swaps the page's markup (page-script.ts).
 */
export function playerListHtml(i18n: Translator, component: SnapshotComponent, idPrefix = 'players'): string {
  const live = component.live;
  const names = live?.playerNames;
  if (!live || !names || names.length === 0) return '';
  // Minecraft lists a sample of at most 12, and lists are capped at 100: the count is the server's, when larger.
  const count = Math.max(live.players ?? 0, names.length);
  const note =
    names.length < count
      ? `<p class="who-note">${escapeHtml(i18n.t('players.shown', { shown: names.length, count }))}</p>`
      : '';
  const items = names.map((name) => `<li>${escapeHtml(name)}</li>`).join('');
  return (
    `<details class="who" id="${idPrefix}-${escapeHtml(component.id)}" data-testid="player-names">` +
    `<summary>${escapeHtml(i18n.t('players.online', { count }))}</summary>` +
    `<ul class="who-list" aria-label="${escapeHtml(i18n.t('players.listLabel'))}">${items}</ul>${note}</details>`
  );
}
