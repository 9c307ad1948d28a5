// The Pages, Incidents and Maintenance screens in real Chromium against a real Warden: a page made in the dashboard
// with two components linked to monitors, reordered by keyboard, as the public page shows it; an incident opened and
// resolved, on the page and in its feed; a window scheduled in the browser's time zone; a page of warden.yaml shown
// read-only with its key; no serious accessibility violation on any of the four screens.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser } from '../accounts.js';
import { seriousViolations as axeViolations } from '../axe.js';
import { launchChromium } from '../browser.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, config: { graceSec: 600 } }
  - { key: proxy, name: Proxy, type: heartbeat, config: { graceSec: 600 } }
pages:
  - slug: main
    title: Acme status
    components:
      - { key: hub, name: Hub, monitor: lobby }
`;
/** The browser's zone: times typed in the form are New York's (UTC−4 in June). */
const ZONE = 'America/New_York';

const seeding = () => import('../seed.js');

interface PublicPage {
  components: { name: string }[];
  activeIncidents: { title: string; impact: string; components: { name: string }[] }[];
  recentIncidents: { title: string }[];
  maintenance: { upcoming: { title: string; startsAt: number; endsAt: number; components: { name: string }[] }[] };
}

describe('the dashboard’s pages, incidents and maintenance', () => {
  let warden: SeededWarden;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let editor: SignedInUser;
  const cspErrors: string[] = [];

  beforeAll(async () => {
    warden = await startSeededWarden(dialects.find((d) => d.name === 'sqlite')!, YAML);
    const { testContext } = await seeding();
    editor = await signedInUser(
      { ...testContext(warden.opened.store, { now: () => Date.now() }), organizationId: warden.organizationId },
      [{ organizationId: warden.organizationId, role: 'editor' }],
    );
    browser = await launchChromium();
    context = await browser.newContext({
      colorScheme: 'light',
      viewport: { width: 1280, height: 900 },
      timezoneId: ZONE,
    });
    await context.addCookies([{ name: 'warden_session', value: editor.token, url: warden.url }]);
    page = await context.newPage();
    // A step that cannot happen fails at that step, well within the test's time.
    page.setDefaultTimeout(scaled(10_000));
    // Loading the dashboard is a navigation: on a loaded two-core machine it can take longer than a step.
    page.setDefaultNavigationTimeout(scaled(30_000));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await warden?.close();
  });

  const publicPage = async (slug: string): Promise<PublicPage> =>
    (await fetch(`${warden.url}/api/v1/status/${slug}`)).json() as Promise<PublicPage>;
  const componentNames = async (slug: string) => (await publicPage(slug)).components.map((c) => c.name);

  const seriousViolations = () => axeViolations(page);

  async function addComponent(name: string, monitorSearch: string, monitorOption: string) {
    const form = page.getByRole('form', { name: 'Add a component' });
    await form.getByLabel('Name').fill(name);
    await form.getByRole('combobox', { name: 'Monitor' }).fill(monitorSearch);
    await page.getByRole('option', { name: monitorOption }).click();
    await form.getByRole('button', { name: 'Add component' }).click();
    await page
      .getByRole('list', { name: 'Components in No group' })
      .getByRole('listitem')
      .filter({ hasText: name })
      .waitFor();
  }

  it('makes a page with two components showing monitors, and reorders them by keyboard as the public page shows', {
    timeout: scaled(60_000),
  }, async () => {
    await page.goto(`${warden.url}/app/pages`);
    await page.getByRole('link', { name: 'Acme status' }).waitFor();
    expect(await seriousViolations()).toEqual([]);

    await page.getByRole('button', { name: 'New page' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New page' });
    await dialog.getByLabel('Title').fill('Survival');
    await dialog.getByLabel('Slug').fill('survival');
    await dialog.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(/\/app\/pages\/survival$/);
    await page.getByRole('heading', { name: 'Survival', level: 1 }).waitFor();

    await addComponent('Lobby', 'lob', 'Lobby (lobby)');
    await addComponent('Proxy', 'prox', 'Proxy (proxy)');
    await expect.poll(() => componentNames('survival')).toEqual(['Lobby', 'Proxy']);
    const live = page.getByRole('link', { name: /View live page/ });
    expect([await live.getAttribute('href'), await live.getAttribute('target')]).toEqual(['/s/survival', '_blank']);
    expect(await seriousViolations()).toEqual([]);

    // By keyboard: the focused "move up" button, Enter; the focus stays on the component (its "move down", now that it is first).
    await page.getByRole('button', { name: 'Move Proxy up' }).focus();
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: 'Proxy moved to position 1 of 2 in No group.' })
      .waitFor({ state: 'attached' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Move Proxy down');
    await expect.poll(() => componentNames('survival')).toEqual(['Proxy', 'Lobby']);
    const html = await (await fetch(`${warden.url}/s/survival`)).text();
    expect(html.indexOf('Proxy')).toBeGreaterThan(-1);
    expect(html.indexOf('Proxy')).toBeLessThan(html.indexOf('Lobby'));
    // The order survives a reload (it is the server's).
    await page.reload();
    const rows = page.getByRole('list', { name: 'Components in No group' }).getByRole('listitem');
    await expect
      .poll(() => rows.allInnerTexts().then((t) => t.map((x) => x.split('\n')[0])))
      .toEqual(['Proxy', 'Lobby']);
    // And by mouse: Lobby dropped on Proxy goes before it.
    await rows.filter({ hasText: 'Lobby' }).dragTo(rows.filter({ hasText: 'Proxy' }));
    await expect.poll(() => componentNames('survival')).toEqual(['Lobby', 'Proxy']);

    // At a phone's width nothing runs off the side.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("sets the page's language, time zone and server changes, which the public page then follows", {
    timeout: scaled(60_000),
  }, async () => {
    await page.goto(`${warden.url}/app/pages/survival`);
    const form = page.getByRole('form', { name: 'Page settings' });
    await form.waitFor();
    await form.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Deutsch' }).click();
    await form.getByRole('combobox', { name: 'Time zone' }).fill('Asia/Tok');
    await page.getByRole('option', { name: 'Asia/Tokyo' }).click();
    const announce = form.getByRole('switch', { name: 'Announce server changes' });
    expect(await announce.isChecked()).toBe(false);
    await announce.check();
    await form.getByRole('button', { name: 'Save settings' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await seriousViolations()).toEqual([]);
    const publicPage = await fetch(`${warden.url}/s/survival`, { headers: { 'accept-language': 'fr' } });
    // The page's setting wins over the reader's Accept-Language.
    expect(publicPage.headers.get('content-language')).toBe('de');
    const html = await publicPage.text();
    expect(html).toContain('<html lang="de"');
    // "Zuletzt aktualisiert …, 21:00 GMT+9": Tokyo's times, named so.
    expect(html).toMatch(/GMT\+9/);
    const view = await (
      await fetch(`${warden.url}/api/v1/pages/survival`, { headers: { authorization: `Bearer ${warden.readKey}` } })
    ).json();
    expect([view.language, view.timeZone, view.announceGameChanges]).toEqual(['de', 'Asia/Tokyo', true]);
  });

  it('opens an incident that the public page and its feed show at once, and resolves it', {
    timeout: scaled(60_000),
  }, async () => {
    await page.goto(`${warden.url}/app/incidents?page=survival`);
    await page.getByText('No open incident: all is well.').waitFor();
    expect(await seriousViolations()).toEqual([]);

    await page.getByRole('button', { name: 'Open an incident' }).click();
    const form = page.getByRole('form', { name: 'Open an incident' });
    await form.getByLabel('Title').fill('Lobby lag');
    await form.getByRole('combobox', { name: 'Impact' }).click();
    await page.getByRole('option', { name: 'Major' }).click();
    await form.getByLabel('Message').fill('Players see lag on join.');
    await form.getByRole('combobox', { name: 'Affected components' }).click();
    await page.getByRole('option', { name: 'Lobby' }).click();
    await page.keyboard.press('Escape');
    await form.getByRole('button', { name: 'Open incident' }).click();
    const open = page.getByRole('region', { name: 'Open' }).getByRole('article', { name: 'Lobby lag' });
    await open.waitFor();
    expect(await open.textContent()).toContain('Players see lag on join.');

    const active = (await publicPage('survival')).activeIncidents;
    expect(active).toEqual([
      expect.objectContaining({
        title: 'Lobby lag',
        impact: 'major',
        components: [expect.objectContaining({ name: 'Lobby' })],
      }),
    ]);
    const feed = await (await fetch(`${warden.url}/s/survival/feed.xml`)).text();
    expect(feed).toContain('Lobby lag');

    await open.getByRole('button', { name: 'Resolve Lobby lag' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resolve incident' }).click();
    await page.getByRole('region', { name: 'Recently resolved' }).getByRole('article', { name: 'Lobby lag' }).waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const after = await publicPage('survival');
    expect(after.activeIncidents).toEqual([]);
    expect(after.recentIncidents.map((i) => i.title)).toEqual(['Lobby lag']);
    expect(await seriousViolations()).toEqual([]);
  });

  it('schedules a maintenance window in the browser’s time zone', { timeout: scaled(60_000) }, async () => {
    await page.goto(`${warden.url}/app/maintenance`);
    await page.getByText(`Times are in your time zone, ${ZONE}.`).waitFor();
    expect(await seriousViolations()).toEqual([]);

    await page.getByRole('button', { name: 'Schedule maintenance' }).click();
    const form = page.getByRole('form', { name: 'Schedule maintenance' });
    await form.getByRole('combobox', { name: 'Page' }).click();
    await page.getByRole('option', { name: 'Survival (/s/survival)' }).click();
    await form.getByLabel('Title').fill('Database move');
    // The day after tomorrow in New York (the public page lists the windows of the next days).
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(Date.now() + 2 * 86_400_000);
    await form.getByLabel(`Starts (${ZONE})`).fill(`${day}T10:00`);
    await form.getByLabel(`Ends (${ZONE})`).fill(`${day}T12:30`);
    await form.getByRole('combobox', { name: 'Affected components' }).click();
    await page.getByRole('option', { name: 'Proxy' }).click();
    await page.keyboard.press('Escape');
    // A monitor covered directly: searched on the server, as the component's monitor picker does.
    await form.getByRole('combobox', { name: 'Affected monitors' }).fill('lob');
    await page.getByRole('option', { name: 'Lobby (lobby)' }).click();
    await page.keyboard.press('Escape');
    await form.getByRole('button', { name: 'Schedule' }).click();
    const card = page.getByRole('region', { name: 'Upcoming' }).getByRole('article', { name: 'Database move' });
    await card.waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await card.textContent()).toMatch(/10:00\sAM\s–\s12:30\sPM\s(EDT|EST)/);
    expect(await card.textContent()).toContain('covers components Proxy and monitors lobby');

    // 10:00 in New York, whatever the zone of the machine running the test.
    const zoned = (time: string) => {
      const guess = Date.parse(`${day}T${time}:00Z`);
      const there =
        new Date(new Date(guess).toLocaleString('en-US', { timeZone: ZONE })).getTime() -
        new Date(new Date(guess).toLocaleString('en-US', { timeZone: 'UTC' })).getTime();
      return guess - there;
    };
    const [window] = (await publicPage('survival')).maintenance.upcoming;
    expect(window).toMatchObject({
      title: 'Database move',
      startsAt: zoned('10:00'),
      endsAt: zoned('12:30'),
      // Proxy by name, Lobby as the component showing the covered monitor (in page order).
      components: [expect.objectContaining({ name: 'Lobby' }), expect.objectContaining({ name: 'Proxy' })],
    });
    expect(await seriousViolations()).toEqual([]);
  });

  it('schedules a window repeating weekly, listed by its next occurrence', { timeout: scaled(60_000) }, async () => {
    await page.goto(`${warden.url}/app/maintenance`);
    await page.getByRole('button', { name: 'Schedule maintenance' }).click();
    const form = page.getByRole('form', { name: 'Schedule maintenance' });
    await form.getByRole('combobox', { name: 'Page' }).click();
    await page.getByRole('option', { name: 'Survival (/s/survival)' }).click();
    await form.getByLabel('Title').fill('Weekly restart');
    await form.getByLabel('Repeats').selectOption('weekly');
    await form.getByLabel('At', { exact: true }).fill('04:15');
    await form.getByLabel('Duration (minutes)').fill('20');
    expect(await seriousViolations()).toEqual([]);
    await form.getByRole('button', { name: 'Schedule' }).click();
    const card = page.getByRole('region', { name: 'Upcoming' }).getByRole('article', { name: 'Weekly restart' });
    await card.waitFor();
    expect(await card.textContent()).toContain(`Repeats: Every Monday at 04:15 (${ZONE}), 20 min · next`);
  });

  it('shows a page of warden.yaml read-only with its key, its own components without moves', {
    timeout: scaled(20_000),
  }, async () => {
    await page.goto(`${warden.url}/app/pages/main`);
    const note = page.getByRole('note').filter({ hasText: 'Managed by warden.yaml' });
    await note.waitFor();
    expect(await note.textContent()).toContain('the key main');
    expect(await page.getByRole('textbox', { name: 'Title' }).first().getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete page' }).count()).toBe(0);
    const hub = page.getByRole('listitem').filter({ hasText: 'Hub' });
    expect(await hub.textContent()).toMatch(/key\s*hub/);
    expect(await hub.textContent()).toContain('Read-only');
    expect(await page.getByRole('button', { name: /Move Hub/ }).count()).toBe(0);
    expect(await seriousViolations()).toEqual([]);
    expect(cspErrors).toEqual([]);
  });
});
