// The byte budget of rendered forms: least recently read out first across pages, variants counted, a page's share, releases.
import { describe, expect, it } from 'vitest';
import { activeIncidentSnapshot, operationalSnapshot } from '../../../test/fakes/snapshots.js';
import { PAGE_LANGUAGES } from '../../domain/languages.js';
import type { Page } from '../../domain/page.js';
import { type CachedPage, withForms } from './cached-page.js';
import { createRenderBudget, type PageRenderings, type RenderBudget } from './render-budget.js';

const BASE = '/s/acme';

function pageOn(
  budget: RenderBudget,
  id: string,
  snapshot = activeIncidentSnapshot(),
): { cached: CachedPage; renderings: PageRenderings } {
  const renderings = budget.page();
  return { cached: withForms({ id, slug: id } as Page, snapshot, 0, {}, renderings), renderings };
}

/** The plain HTML of the fixture page in English: what most tests size their budget by. */
const HTML_BYTES = Buffer.byteLength(pageOn(createRenderBudget(), 'size').cached.form('html', BASE, {}, 'en').body);

describe('the render budget', () => {
  it('drops the least recently read rendering of any page first, and renders it again with the same bytes and ETag', () => {
    // Room for four HTML renderings (a page's share is one), not five.
    const budget = createRenderBudget(Math.floor(4.5 * HTML_BYTES));
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((id) => pageOn(budget, id).cached) as [
      CachedPage,
      CachedPage,
      CachedPage,
      CachedPage,
      CachedPage,
    ];
    const first = new Map([a, b, c, d].map((page) => [page, page.form('html', BASE, {}, 'en')]));
    // a is read again: b is now the one read longest ago.
    expect(a.form('html', BASE, {}, 'en')).toBe(first.get(a));
    e.form('html', BASE, {}, 'en');
    expect(budget.bytes()).toBeLessThanOrEqual(budget.maxBytes);
    expect(budget.count()).toBe(4);
    for (const kept of [a, c, d]) expect(kept.form('html', BASE, {}, 'en')).toBe(first.get(kept));
    const again = b.form('html', BASE, {}, 'en');
    expect(again).not.toBe(first.get(b));
    expect(again.etag).toBe(first.get(b)!.etag);
    expect(Buffer.compare(Buffer.from(again.body), Buffer.from(first.get(b)!.body))).toBe(0);
  });

  it('counts a compressed variant when it is made, once', () => {
    const budget = createRenderBudget();
    const { cached, renderings } = pageOn(budget, 'a');
    const html = cached.form('html', BASE, {}, 'en');
    expect(budget.bytes()).toBe(HTML_BYTES);
    const br = html.encoded.get('br')!.body.byteLength;
    expect(budget.bytes()).toBe(HTML_BYTES + br);
    const gzip = html.encoded.get('gzip')!.body.byteLength;
    html.encoded.get('br');
    expect(budget.bytes()).toBe(HTML_BYTES + br + gzip);
    expect(renderings.bytes()).toBe(budget.bytes());
  });

  it('serves a rendering larger than a page’s share without keeping it', () => {
    // A page's share (a quarter) is half an HTML rendering: the HTML is not kept, the badge is.
    const budget = createRenderBudget(2 * HTML_BYTES);
    const { cached } = pageOn(budget, 'a');
    const html = cached.form('html', BASE, {}, 'en');
    expect(html.body.length).toBe(HTML_BYTES);
    expect(budget.bytes()).toBe(0);
    const again = cached.form('html', BASE, {}, 'en');
    expect(again).not.toBe(html);
    expect(again.etag).toBe(html.etag);
    const badge = cached.form('badge', BASE);
    expect(cached.form('badge', BASE)).toBe(badge);
    expect(budget.bytes()).toBe(Buffer.byteLength(badge.body));
  });

  it('keeps one page version within its share, dropping its own least recently read first', () => {
    // A page's share is room for about four of its eight languages.
    const budget = createRenderBudget(16 * HTML_BYTES);
    const { cached, renderings } = pageOn(budget, 'a');
    const english = cached.form('html', BASE, {}, 'en');
    for (const language of PAGE_LANGUAGES.slice(1)) {
      // English is read before each new language: the others go first.
      expect(cached.form('html', BASE, {}, 'en')).toBe(english);
      cached.form('html', BASE, {}, language);
      expect(renderings.bytes()).toBeLessThanOrEqual(budget.pageMaxBytes);
    }
    expect(cached.form('html', BASE, {}, 'en')).toBe(english);
    expect(budget.count()).toBeLessThan(PAGE_LANGUAGES.length);
    // The rest of the budget is the other pages'.
    const other = pageOn(budget, 'b').cached;
    const its = other.form('html', BASE, {}, 'en');
    expect(other.form('html', BASE, {}, 'en')).toBe(its);
    expect(cached.form('html', BASE, {}, 'en')).toBe(english);
  });

  it('never holds more than its bytes, over pages, languages, option sets and variants', () => {
    const budget = createRenderBudget(12 * HTML_BYTES);
    const pages = ['a', 'b', 'c', 'd'].map((id, i) =>
      pageOn(budget, id, i % 2 === 0 ? activeIncidentSnapshot() : operationalSnapshot()),
    );
    for (const language of PAGE_LANGUAGES)
      for (const { cached } of pages) {
        const html = cached.form('html', BASE, {}, language);
        html.encoded.get('br');
        html.encoded.get('gzip');
        cached.form('json', BASE).encoded.get('gzip');
        cached.form('badge', BASE, { label: `players ${language}` });
        expect(budget.bytes()).toBeLessThanOrEqual(budget.maxBytes);
        // What the budget counts is what the pages hold.
        expect(pages.reduce((sum, page) => sum + page.renderings.bytes(), 0)).toBe(budget.bytes());
      }
    expect(budget.bytes()).toBeGreaterThan(budget.maxBytes / 2);
  });

  it('keeps a bounded number of renderings, however small', () => {
    const budget = createRenderBudget(64 * 1024 * 1024, 10);
    const { cached } = pageOn(budget, 'a');
    const badges = Array.from({ length: 30 }, (_, i) => cached.form('badge', BASE, { label: `label ${i}` }));
    expect(budget.count()).toBeLessThanOrEqual(10);
    expect(cached.form('badge', BASE, { label: 'label 29' })).toBe(badges[29]);
    expect(cached.form('badge', BASE, { label: 'label 0' })).not.toBe(badges[0]);
  });

  it('gives a released version’s bytes back, and keeps nothing for a request still holding it', () => {
    const budget = createRenderBudget();
    const { cached, renderings } = pageOn(budget, 'a');
    const html = cached.form('html', BASE, {}, 'en');
    cached.form('json', BASE);
    const other = pageOn(budget, 'b').cached.form('html', BASE, {}, 'en');
    cached.release();
    expect(renderings.bytes()).toBe(0);
    expect(budget.bytes()).toBe(Buffer.byteLength(other.body));
    // An in-flight request compressing the old bytes, or reading the old version again, is served and not counted.
    expect(html.encoded.get('br')?.body.byteLength).toBeGreaterThan(0);
    const again = cached.form('html', BASE, {}, 'en');
    expect(again.etag).toBe(html.etag);
    expect(budget.bytes()).toBe(Buffer.byteLength(other.body));
    expect(budget.count()).toBe(1);
  });
});
