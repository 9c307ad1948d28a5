// A component's join control and badges, on the HTML page and in the embed: a real link for steam:// and https://
// (cfx.re/join), a button that copies an address (join-copy-script.ts), the address as selectable text, the badges.
import type { JoinBadge } from '../domain/join-badges.js';
import type { SnapshotComponent } from '../domain/snapshot.js';
import { escapeHtml } from './html-layout.js';
import type { Translator } from './i18n/index.js';
import { plainText } from './page-wording.js';

/** '' for a component with neither a join nor a badge. */
export function joinHtml(i18n: Translator, component: Pick<SnapshotComponent, 'name' | 'join' | 'badges'>): string {
  const { join, badges } = component;
  if (!join && badges.length === 0) return '';
  return `<div class="join" data-testid="join">${join ? controlHtml(i18n, component) : ''}${badgesHtml(i18n, badges)}</div>`;
}

function controlHtml(i18n: Translator, component: Pick<SnapshotComponent, 'name' | 'join'>): string {
  const join = component.join;
  if (!join) return '';
  const target = join.label;
  const address = `<code class="join-address" data-testid="join-address">${escapeHtml(target)}</code>`;
  const labelled = (action: string) =>
    escapeHtml(i18n.t('join.controlLabel', { action, component: plainText(component.name), target }));
  if (join.kind !== 'copy' && join.url) {
    const action = i18n.t(join.kind === 'steam' ? 'join.steam' : 'join.link');
    // An https link leaves the page (cfx.re opens FiveM); steam:// hands over to the Steam client.
    const away = join.kind === 'link' ? ' target="_blank" rel="noopener"' : '';
    return (
      `<a class="join-go" data-testid="join-link" href="${escapeHtml(join.url)}"${away} aria-label="${labelled(action)}">` +
      `${escapeHtml(action)}</a>${address}`
    );
  }
  const action = i18n.t('join.copy');
  return (
    `<button type="button" class="join-go" data-testid="join-copy" data-copy="${escapeHtml(join.address ?? target)}"` +
    ` data-copied="${escapeHtml(i18n.t('join.copied'))}" data-fallback="${escapeHtml(i18n.t('join.copyFallback'))}"` +
    ` aria-label="${labelled(action)}">${escapeHtml(action)}</button>${address}` +
    '<span class="join-note" data-testid="join-note" role="status"></span>'
  );
}

function badgesHtml(i18n: Translator, badges: JoinBadge[]): string {
  if (badges.length === 0) return '';
  const items = badges
    .map((badge) => {
      const text =
        badge.kind === 'queue'
          ? i18n.t('join.badge.queue', { count: badge.count ?? 0 })
          : i18n.t(`join.badge.${badge.kind}`);
      return `<li class="jb jb-${badge.kind}" data-badge="${badge.kind}">${escapeHtml(text)}</li>`;
    })
    .join('');
  return `<ul class="join-badges" aria-label="${escapeHtml(i18n.t('join.badges'))}">${items}</ul>`;
}
