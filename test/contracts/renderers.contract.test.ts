// The contract every form of a page in src/render/forms.ts keeps, for every fixture: pure, the same bytes, well formed, escaped.
import { describe, expect, it, vi } from 'vitest';
import { PAGE_LANGUAGES, type PageLanguage } from '../../src/domain/languages.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { type FormName, formOptions, type PageForm, pageForms, type Rendered } from '../../src/render/forms.js';
import { FIXTURE_NOW, hostileSnapshot, SNAPSHOT_FIXTURES } from '../fakes/snapshots.js';
import { difference, LANGUAGES, type LanguageName, markupIn, tame } from './renderers-languages.js';

/**
 * How the contract reads each form: the language it speaks, and query strings that set every option its options()
 * reads, each alone and all together. A form added to pageForms fails this suite until it is added here.
 */
const FORMS = {
  json: { language: 'json', queries: [] },
  markdown: { language: 'markdown', queries: ['lang=de'] },
  html: { language: 'html', queries: ['range=7d', 'range=30d', 'lang=de&range=30d'] },
  feed: { language: 'rss', queries: ['lang=pl'] },
  badge: {
    language: 'svg',
    queries: [
      'players',
      'label=Survival',
      'label=',
      ...['flat-square', 'plastic', 'for-the-badge', 'social'].map((style) => `style=${style}`),
      'players&style=for-the-badge&label=x',
      `players=yes&style=social&label=${encodeURIComponent('<script>alert(1)</script> "x" & ]]>\u0007')}`,
    ],
  },
  og: { language: 'png', queries: ['lang=ru'] },
  embed: {
    language: 'html',
    queries: [
      'theme=dark',
      'theme=light',
      'variant=full',
      'variant=full&theme=dark',
      // By id and by name (in the network fixtures), and one no fixture has. The hostile snapshot's components cannot
      // be named here (tame() changes their ids): src/render/embed.test.ts checks their widget against the tamed one.
      'component=survival&theme=light',
      'component=Lobby',
      'component=nether',
      'lang=tr&variant=full',
    ],
  },
  statuspageSummary: { language: 'statuspage', queries: [] },
  statuspageStatus: { language: 'statuspage', queries: [] },
  statuspageComponents: { language: 'statuspage', queries: [] },
  statuspageIncidents: { language: 'statuspage', queries: [] },
  statuspageUnresolved: { language: 'statuspage', queries: [] },
  statuspageMaintenances: { language: 'statuspage', queries: [] },
  statuspageUpcoming: { language: 'statuspage', queries: [] },
  statuspageActive: { language: 'statuspage', queries: [] },
} satisfies Record<FormName, { language: LanguageName; queries: string[] }>;

/** The forms' basePath on the page's slug path, and on its custom domain. */
const SLUG_PATH = '/s/blockhaven';
const CUSTOM_DOMAIN = '';

describe('the renderer contract', () => {
  it('knows how to read every form of the registry, and only those', () => {
    const unknown = Object.keys(pageForms).filter((name) => !(name in FORMS));
    expect(unknown, 'forms of pageForms that FORMS in test/contracts/renderers.contract.test.ts does not list').toEqual(
      [],
    );
    expect(
      Object.keys(FORMS).filter((name) => !(name in pageForms)),
      'forms in FORMS that pageForms has no more',
    ).toEqual([]);
  });

  it('sets options exactly for the forms that read them, and each query string gives some', () => {
    for (const name of Object.keys(pageForms)) {
      const { queries } = readingOf(name);
      if (!formOf(name).options) {
        expect(queries, `${name} reads no options: FORMS should list no query strings for it`).toEqual([]);
        continue;
      }
      expect(
        queries.length,
        `${name} reads options: list query strings that set each of them in FORMS`,
      ).toBeGreaterThan(0);
      for (const query of queries)
        expect(formOptions(name as FormName, query), `${name}?${query} sets no option`).not.toEqual({});
    }
  });

  it('tames the hostile snapshot into one with the same structure and no markup', () => {
    const hostile = hostileSnapshot();
    expect(markupIn(hostile).length).toBeGreaterThan(10);
    expect(markupIn(tame(hostile))).toEqual([]);
    expect(tame(hostile).components.map((c) => c.state)).toEqual(hostile.components.map((c) => c.state));
  });
});

for (const name of Object.keys(pageForms)) {
  // og.png takes a few hundred milliseconds a rendering, and a test renders it up to a dozen times.
  describe(`the ${name} form`, { timeout: 60_000 }, () => {
    for (const [fixture, make] of Object.entries(SNAPSHOT_FIXTURES)) {
      it(`renders the ${fixture} snapshot to the same bytes at other times, from a deep clone, leaving it untouched`, async () => {
        const snapshot = make();
        const first = await renderAt(0, name, snapshot);
        expectSame(await renderAt(1, name, snapshot), first, 'rendered again, a day later');
        expectSame(await renderAt(2, name, structuredClone(snapshot)), first, 'rendered from a structuredClone');
        expectSame(await renderAt(3, name, make()), first, 'rendered from a new fixture');
        expect(snapshot, 'the snapshot after rendering').toStrictEqual(make());
      });
    }

    it('renders the same bytes at other times with each option set it reads', async () => {
      for (const query of readingOf(name).queries) {
        for (const [fixture, make] of Object.entries(SNAPSHOT_FIXTURES)) {
          const first = await renderAt(0, name, make(), query);
          expectSame(await renderAt(1, name, make(), query), first, `${fixture}?${query}`);
          expectSame(
            await renderAt(2, name, structuredClone(make()), query),
            first,
            `${fixture}?${query} from a structuredClone`,
          );
        }
      }
    });

    it(`reads back every fixture, with every option set, as well-formed ${titleOf(name, 'language')} of one content type`, async () => {
      const language = languageOf(name);
      const contentTypes = new Set<string>();
      for (const query of ['', ...readingOf(name).queries]) {
        for (const [fixture, make] of Object.entries(SNAPSHOT_FIXTURES)) {
          const { contentType, body } = await render(name, make(), query);
          contentTypes.add(contentType);
          await check(`${fixture}?${query}`, () => language.read(body, make()));
        }
      }
      expect([...contentTypes]).toHaveLength(1);
      expect([...contentTypes][0]).toMatch(language.contentType);
    });

    it(`escapes hostile text: ${titleOf(name, 'escaping')}`, async () => {
      const hostile = hostileSnapshot();
      const markup = markupIn(hostile);
      for (const query of ['', ...readingOf(name).queries]) {
        const rendered = await render(name, hostile, query);
        await check(`hostile?${query}`, () => languageOf(name).read(rendered.body, hostile));
        const tamed = await render(name, tame(hostile), query);
        await check(`hostile?${query} against tamed`, () =>
          languageOf(name).sameStructure(rendered.body, tamed.body, markup),
        );
      }
    });

    const pathIndependent = formOf(name).pathIndependent === true;
    it(
      pathIndependent
        ? 'gives the same bytes on the slug path and on the custom domain'
        : 'gives the same bytes every time on the slug path, and on the custom domain',
      async () => {
        const snapshot = SNAPSHOT_FIXTURES.activeIncident();
        const [onSlugPath, onCustomDomain] = [
          await render(name, snapshot, '', SLUG_PATH),
          await render(name, snapshot, '', CUSTOM_DOMAIN),
        ];
        if (pathIndependent) {
          expectSame(onCustomDomain, onSlugPath, 'on the custom domain, path independent');
        } else {
          expectSame(await render(name, snapshot, '', SLUG_PATH), onSlugPath, 'on the slug path again');
          expectSame(await render(name, snapshot, '', CUSTOM_DOMAIN), onCustomDomain, 'on the custom domain again');
        }
      },
    );
  });
}

/*
 * The forms that speak the reader's language (`localized`), in each language: the same bytes at other times, well
 * formed and in that language, and the hostile snapshot escaped as in English. og.png renders the hostile snapshot
 * only (a few hundred milliseconds a rendering).
 */
for (const name of Object.keys(pageForms).filter((form) => formOf(form).localized)) {
  describe(`the ${name} form in every language`, { timeout: 60_000 }, () => {
    for (const language of PAGE_LANGUAGES) {
      it(`renders ${language} to the same bytes at other times, well formed, with hostile text escaped`, async () => {
        const fixtures = name === 'og' ? { hostile: hostileSnapshot } : SNAPSHOT_FIXTURES;
        for (const [fixture, make] of Object.entries(fixtures)) {
          const first = await renderAt(0, name, make(), '', language);
          expectSame(await renderAt(1, name, make(), '', language), first, `${fixture} in ${language}, a day later`);
          await check(`${fixture} in ${language}`, () => languageOf(name).read(first.body, make()));
          if (readingOf(name).language === 'html') expect(String(first.body)).toContain(`<html lang="${language}"`);
        }
        const hostile = hostileSnapshot();
        const [rendered, tamed] = [
          await render(name, hostile, '', SLUG_PATH, language),
          await render(name, tame(hostile), '', SLUG_PATH, language),
        ];
        await check(`hostile in ${language} against tamed`, () =>
          languageOf(name).sameStructure(rendered.body, tamed.body, markupIn(hostile)),
        );
        if (language !== 'en' && name !== 'og')
          expect(
            difference(rendered.body, (await render(name, hostile, '', SLUG_PATH, 'en')).body),
            `${name} in ${language} is not English`,
          ).not.toBeNull();
      });
    }
  });
}

/** The FORMS entry of a form, or a failure that says what to add: a new form is never skipped silently. */
function readingOf(name: string): { language: LanguageName; queries: string[] } {
  const reading = (FORMS as Record<string, { language: LanguageName; queries: string[] }>)[name];
  if (!reading)
    throw new Error(
      `The form "${name}" is in pageForms (src/render/forms.ts) but the renderer contract cannot read it: add it to FORMS in ` +
        'test/contracts/renderers.contract.test.ts with its language and the query strings of its options.',
    );
  return reading;
}

/** A part of a test's name from the form's language; a form FORMS lacks still gets its tests, which then fail. */
function titleOf(name: string, part: 'language' | 'escaping'): string {
  const language = (FORMS as Record<string, { language: LanguageName }>)[name]?.language;
  if (!language) return '(a form the contract does not know)';
  return part === 'language' ? language : LANGUAGES[language].escaping;
}

function languageOf(name: string) {
  return LANGUAGES[readingOf(name).language];
}

function formOf(name: string): PageForm {
  return pageForms[name as FormName];
}

/** Renders as the route does: options normalized from the query string by formOptions, in the reader's language. */
async function render(
  name: string,
  snapshot: Snapshot,
  query = '',
  basePath = SLUG_PATH,
  language?: PageLanguage,
): Promise<Rendered> {
  return formOf(name).render(snapshot, {
    basePath,
    options: formOptions(name as FormName, query),
    ...(language ? { language } : {}),
  });
}

/**
 * Renders with the clock days later and Math.random giving another number at each `moment`: a form that read either
 * would give other bytes. Only Date is faked, so the renderers' own promises and threads run as ever.
 */
async function renderAt(
  moment: number,
  name: string,
  snapshot: Snapshot,
  query = '',
  language?: PageLanguage,
): Promise<Rendered> {
  vi.useFakeTimers({ toFake: ['Date'], now: FIXTURE_NOW + moment * 86_400_000 });
  const random = vi.spyOn(Math, 'random').mockReturnValue([0.13, 0.87, 0.42, 0.61][moment % 4]!);
  try {
    return await render(name, snapshot, query, SLUG_PATH, language);
  } finally {
    random.mockRestore();
    vi.useRealTimers();
  }
}

function expectSame(actual: Rendered, expected: Rendered, what: string): void {
  expect(actual.contentType, `${what}: the content type`).toBe(expected.contentType);
  expect(difference(actual.body, expected.body), `${what}: the bytes`).toBeNull();
}

/** Runs a language's check, saying which rendering failed it. */
async function check(what: string, run: () => void | Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Error) error.message = `${what}: ${error.message}`;
    throw error;
  }
}
