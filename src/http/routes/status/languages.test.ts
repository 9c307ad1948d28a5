// A page's language through the app and the server's fast path: ?lang, then the page's setting, then Accept-Language,
// then English; Content-Language and Vary; times in the page's time zone; the password and 404 pages too.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { dialects } from '../../../../test/store-dialects.js';
import { pageFastPath } from './fast-path.js';

const CONFIG = `
organization: { name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, config: { host: 127.0.0.1, port: 25565 } }
pages:
  - slug: acme
    title: Acme Network
    components: [{ name: Lobby, monitor: lobby }]
  - slug: tokio
    title: Tokio
    language: fr
    timeZone: Asia/Tokyo
    components: [{ name: Lobby, monitor: lobby }]
  - slug: secret
    title: Secret
    password: hunter2-long
    components: [{ name: Lobby, monitor: lobby }]
`;

const HTML = { accept: 'text/html,*/*' };

// Language is no storage matter: one dialect is enough.
const dialect = dialects[0]!;

describe.skipIf(!dialect.available)('the language of a page', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect, CONFIG);
    await h.ingest.record({
      monitorId: h.monitors.lobby!.id,
      ok: true,
      latencyMs: 20,
      data: { players: 1234, maxPlayers: 5000 },
      source: 'edge',
    });
  });
  afterAll(() => h.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    h.request(path, { headers: { ...HTML, ...headers } });

  it("speaks the reader's Accept-Language on a page without a language, and says the answer varies by it", async () => {
    const german = await get('/s/acme', { 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' });
    const html = await german.text();
    expect(html.startsWith('<!doctype html>\n<html lang="de"')).toBe(true);
    expect(html).toContain('Alle Systeme betriebsbereit');
    expect(html).toContain('<dt>Spieler online</dt><dd>1.234 / 5.000</dd>');
    expect(german.headers.get('content-language')).toBe('de');
    expect(german.headers.get('vary')).toBe('Accept, Accept-Language, Accept-Encoding');

    const french = await get('/s/acme', { 'accept-language': 'fr-CA;q=0.8, xx;q=0.9' });
    expect(french.headers.get('content-language')).toBe('fr');
    expect(await french.text()).toContain('Tous les systèmes sont opérationnels');
    expect(french.headers.get('etag')).not.toBe(german.headers.get('etag'));

    // No header, or none we speak: English, which could still have been another language.
    for (const headers of [{}, { 'accept-language': 'ja, zh;q=0.8' }] as Record<string, string>[]) {
      const english = await get('/s/acme', headers);
      expect(english.headers.get('content-language')).toBe('en');
      expect(english.headers.get('vary')).toBe('Accept, Accept-Language, Accept-Encoding');
      expect(await english.text()).toContain('All systems operational');
    }
    // The same language twice is the same cached rendering.
    expect((await get('/s/acme', { 'accept-language': 'de' })).headers.get('etag')).toBe(german.headers.get('etag'));
  });

  it("puts the page's language before Accept-Language, and then nothing varies by that header", async () => {
    const page = await get('/s/tokio', { 'accept-language': 'de' });
    const html = await page.text();
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain('Tous les systèmes sont opérationnels');
    expect(page.headers.get('content-language')).toBe('fr');
    expect(page.headers.get('vary')).toBe('Accept, Accept-Encoding');
    const feed = await get('/s/tokio/feed.xml', { 'accept-language': 'de' });
    expect(await feed.text()).toContain('<language>fr</language>');
    expect(feed.headers.get('vary')).toBe('Accept-Encoding');
  });

  it("puts the reader's ?lang before both, and keeps it on the page's links and forms", async () => {
    const spanish = await get('/s/tokio?lang=es', { 'accept-language': 'de' });
    const html = await spanish.text();
    expect(html).toContain('<html lang="es"');
    expect(html).toContain('Todos los sistemas operativos');
    expect(html).toContain('href="/s/tokio/status.md?lang=es"');
    expect(html).toContain('href="/s/tokio/feed.xml?lang=es"');
    expect(html).toContain('content="http://warden.test/s/tokio/og.png?lang=es"');
    expect(html).toContain('<a href="?lang=es" hreflang="es" lang="es" aria-current="true">Español</a>');
    expect(spanish.headers.get('content-language')).toBe('es');
    expect(spanish.headers.get('vary')).toBe('Accept, Accept-Encoding');
    // Matched loosely; a language Warden does not ship is no pick at all.
    expect(await (await get('/s/acme?lang=PT-br')).text()).toContain('<html lang="pt-BR"');
    const unknown = await get('/s/tokio?lang=xx', { 'accept-language': 'de' });
    expect(unknown.headers.get('content-language')).toBe('fr');
    // A page without a pick links its forms plainly (they resolve the language the same way).
    expect(await (await get('/s/acme')).text()).toContain('href="/s/acme/status.md"');
  });

  it("shows dates in the page's time zone, in the reader's language, and says which zone", async () => {
    // The harness's clock is 2026-11-20 12:00 UTC: 21:00 in Tokyo.
    const english = await (await get('/s/tokio?lang=en')).text();
    expect(english).toContain(
      '<time datetime="2026-11-20T12:00:00Z" data-local data-relative>20 Nov 2026, 21:00 GMT+9</time>',
    );
    expect(english).toContain('Times are in Asia/Tokyo.');
    const french = await (await get('/s/tokio')).text();
    expect(french).toContain('>20 nov. 2026, 21:00 UTC+9</time>');
    // A UTC page names UTC in each time and needs no more.
    const utc = await (await get('/s/acme')).text();
    expect(utc).toContain('>20 Nov 2026, 12:00 UTC</time>');
    expect(utc).not.toContain('Times are in');
  });

  it('resolves the language the same way for Markdown, RSS and og.png; the JSON has none', async () => {
    const md = await h.request('/s/acme/status.md', { headers: { 'accept-language': 'ru' } });
    expect(await md.text()).toContain('Все системы работают');
    expect(md.headers.get('content-language')).toBe('ru');
    expect(md.headers.get('vary')).toBe('Accept-Language, Accept-Encoding');
    const feed = await h.request('/s/acme/feed.xml?lang=pl', { headers: { 'accept-language': 'ru' } });
    expect(await feed.text()).toContain('<language>pl</language>');
    expect(feed.headers.get('content-language')).toBe('pl');
    expect(feed.headers.get('vary')).toBe('Accept-Encoding');
    const [russian, english] = await Promise.all([
      h.request('/s/acme/og.png?lang=ru'),
      h.request('/s/acme/og.png?lang=en'),
    ]);
    expect(russian.headers.get('content-language')).toBe('ru');
    expect(Buffer.from(await russian.arrayBuffer()).equals(Buffer.from(await english.arrayBuffer()))).toBe(false);
    const json = await h.request('/s/acme/status.json', { headers: { 'accept-language': 'de' } });
    expect(json.headers.get('content-language')).toBeNull();
    expect(json.headers.get('vary')).toBe('Accept-Encoding');
  });

  it('answers the same bytes and headers on the fast path as through the app', async () => {
    const fast = pageFastPath(h.pages);
    for (const [url, acceptLanguage] of [
      ['/s/acme', 'de'],
      ['/s/acme', undefined],
      ['/s/tokio', 'de'],
      ['/s/acme?lang=tr', 'de'],
      ['/s/acme/status.md', 'ru'],
    ] as const) {
      const headers = {
        ...HTML,
        host: 'warden.test',
        ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}),
      };
      const viaApp = await h.request(url, { headers });
      const body = Buffer.from(await viaApp.arrayBuffer());
      const answer = await fast.answer({ method: 'GET', url, headers } as unknown as IncomingMessage);
      expect(answer, url).toBeDefined();
      expect(answer!.headers['content-language'], url).toBe(viaApp.headers.get('content-language'));
      expect(answer!.headers.vary ?? null, url).toBe(viaApp.headers.get('vary'));
      expect(answer!.headers.etag, url).toBe(viaApp.headers.get('etag'));
      expect(Buffer.from(answer!.body as Uint8Array).equals(body), url).toBe(true);
    }
  });

  it('asks for a password, and says a page is missing, in the reader’s language', async () => {
    const locked = await get('/s/secret', { 'accept-language': 'de' });
    expect(locked.status).toBe(401);
    expect(await locked.text()).toContain('<h1>Private Statusseite</h1>');
    expect(locked.headers.get('content-language')).toBe('de');
    expect(locked.headers.get('vary')).toBe('Accept-Language');
    const picked = await (await get('/s/secret?lang=fr', { 'accept-language': 'de' })).text();
    expect(picked).toContain('action="/s/secret/login?lang=fr"');

    const form = (password: string) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'de' },
      body: `password=${password}`,
    });
    const wrong = await h.request('/s/secret/login?lang=fr', form('nope-nope-nope'));
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Ce mot de passe n’est pas le bon.');
    const right = await h.request('/s/secret/login?lang=fr', form('hunter2-long'));
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/s/secret?lang=fr');

    const missing = await get('/s/nope', { 'accept-language': 'pt-BR' });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Não há nenhuma página de status chamada “nope” aqui');
    expect(missing.headers.get('content-language')).toBe('pt-BR');
  });
});
