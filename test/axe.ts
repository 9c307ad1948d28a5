// axe-core as the browser tests run it: WCAG 2.1 A and AA, and only the serious and critical violations fail a test.
//
// @axe-core/playwright's default run is axe.runPartial() in every frame and then axe.finishRun() in a new blank page of
// the context: a renderer started, axe's 600 KB evaluated in it, and closed, on every scan. That mode exists for
// cross-origin frames, which axe.run() cannot read into; on a page without one, axe.run() in the page ("legacy
// mode") reports the same violations, passes and incomplete checks (compared on every dashboard-pages scan) in about
// half the time (0.4–1.4 s against 0.9–2.6 s here). About fifty scans run in `npm test`, on browsers that already
// take most of the suite's CPU, so each scan picks the cheaper mode whenever the page allows it.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Whether a frame of the page loads a document of another origin (about:blank and srcdoc frames share the page's). */
function hasCrossOriginFrame(page: Page): boolean {
  const origin = new URL(page.url()).origin;
  return page.frames().some((frame) => {
    const url = frame.url();
    return /^https?:/.test(url) && new URL(url).origin !== origin;
  });
}

/** An axe run over the page against `tags`: axe.run() in the page unless a cross-origin frame needs the partial runs. */
export function axeOn(page: Page, tags: readonly string[] = WCAG_21_AA): AxeBuilder {
  return new AxeBuilder({ page }).withTags([...tags]).setLegacyMode(!hasCrossOriginFrame(page));
}

/** Serious and critical violations, as `id: targets`, of a run (by default the whole page against WCAG 2.1 AA). */
export async function seriousViolations(page: Page, builder: AxeBuilder = axeOn(page)): Promise<string[]> {
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
