// The status page people are shown (test/e2e/page-showcase.test.ts and `npm run screenshots page`): a real Warden on
// SQLite holding "Blockhaven Network" — two Minecraft servers fed by heartbeats that carry players, a website, thirty
// days of history written through the store, an active incident on Survival, a scheduled maintenance window,
// and branding (accent, header links, footer, an uploaded SVG logo). A second page, the same with a custom stylesheet.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CheckRow } from '../src/domain/check.js';
import { type SeededWarden, startSeededWarden } from './seeded-warden.js';
import { dialects } from './store-dialects.js';

export const SHOWCASE_SLUG = 'blockhaven';
/** The same page with a custom stylesheet: the one render-blocking request a page can choose. */
export const STYLED_SLUG = 'blockhaven-styled';
// Discord's darker blurple: its usual #5865f2 reaches 4.6:1 on white but 4.32:1 on the page's #f6f8fa, where the chart
// range links sit (axe flags it; the accent check measures against white only).
export const ACCENT = '#4752c4';
export const INCIDENT_TITLE = 'Survival players disconnected after the 1.21.4 update';
export const MAINTENANCE_TITLE = 'Network switch upgrade';
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

const HOUR = 3600_000;
const TOKENS = {
  survival: 'wdp_showcaseSurvivalHeartbeat012345',
  creative: 'wdp_showcaseCreativeHeartbeat012345',
  website: 'wdp_showcaseWebsiteHeartbeat0123456',
};
/** Players at the evening peak; the night has a third of them. */
const PEAK: Record<string, number> = { survival: 64, creative: 18 };

/** A wordmark logo: a block and the network's name (an image, never inlined, so its text font is the system's). */
export const LOGO_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="48" viewBox="0 0 240 48">' +
    '<style>.a{fill:#4752c4}@media (prefers-color-scheme:dark){.a{fill:#8c96ff}}</style>' +
    '<rect x="4" y="6" width="36" height="36" rx="6" class="a"/><rect x="12" y="14" width="10" height="10" fill="#fff"/>' +
    '<rect x="22" y="24" width="10" height="10" fill="#fff" opacity=".7"/>' +
    '<text x="50" y="33" font-family="system-ui,sans-serif" font-size="24" font-weight="700" class="a">Blockhaven</text></svg>',
);

export interface Showcase {
  warden: SeededWarden;
  /** The public page's URL: /s/{slug}. */
  pageUrl(slug?: string): string;
  close(): Promise<void>;
}

/** Starts the Warden, writes the history, sends the current heartbeats, uploads the logo; resolves once the pages show it. */
export async function startShowcase(now = Date.now()): Promise<Showcase> {
  const sqlite = dialects.find((d) => d.name === 'sqlite');
  if (!sqlite) throw new Error('no SQLite dialect');
  const warden = await startSeededWarden(sqlite, showcaseYaml(now));
  try {
    await warden.opened.store.checks.write(history(warden, now), []);
    for (const [key, token] of Object.entries(TOKENS)) await push(warden.url, token, current(key, now));
    for (const slug of [SHOWCASE_SLUG, STYLED_SLUG]) {
      const uploaded = await fetch(`${warden.url}/api/v1/pages/${slug}/assets/logo`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${warden.writeKey}`, 'content-type': 'image/svg+xml' },
        body: LOGO_SVG,
      });
      if (uploaded.status !== 200)
        throw new Error(`logo upload to ${slug}: ${uploaded.status} ${await uploaded.text()}`);
    }
    // The page cache takes the upload in within moments (the bus invalidates it): wait for the logo in both pages.
    for (let tries = 0; ; tries++) {
      const pages = await Promise.all(
        [SHOWCASE_SLUG, STYLED_SLUG].map(async (slug) => (await fetch(`${warden.url}/s/${slug}`)).text()),
      );
      if (pages.every((html) => html.includes('class="brand-logo"'))) break;
      if (tries > 100) throw new Error('the uploaded logo never showed on the pages');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch (error) {
    await warden.close();
    throw error;
  }
  return { warden, pageUrl: (slug = SHOWCASE_SLUG) => `${warden.url}/s/${slug}`, close: () => warden.close() };
}

/** Opens the page in a context of this colour scheme, and waits until its logo has loaded. */
export async function openShowcase(
  browser: Browser,
  showcase: Showcase,
  options: {
    looks: 'light' | 'dark';
    viewport?: { width: number; height: number };
    deviceScaleFactor?: number;
    slug?: string;
  },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    colorScheme: options.looks,
    viewport: options.viewport ?? DESKTOP,
    deviceScaleFactor: options.deviceScaleFactor ?? 1,
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  await page.goto(showcase.pageUrl(options.slug));
  await logoLoaded(page);
  return { context, page };
}

/** Waits until the header's logo is decoded (a screenshot before would show a gap). */
export async function logoLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const logo = document.querySelector<HTMLImageElement>('[data-testid=brand-logo]');
    return logo?.complete === true && logo.naturalWidth > 0;
  });
}

function showcaseYaml(now: number): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  const heartbeat = (key: string, name: string, tags: string) =>
    `  - { key: ${key}, name: ${name}, type: heartbeat, pushToken: ${TOKENS[key as keyof typeof TOKENS]}, tags: [${tags}], config: { graceSec: 3600 } }`;
  const page = (slug: string, css: string) => `
  - slug: ${slug}
    title: Blockhaven Network
    description: Live status of the Blockhaven Minecraft servers
    branding:
      accentColor: "${ACCENT}"
      links:
        - { label: Discord, url: "https://discord.gg/blockhaven" }
        - { label: Website, url: "https://blockhaven.example/" }
      footerText: "© Blockhaven Network. Not an official Minecraft product; not approved by or associated with Mojang."
${css}    components:
      - { name: Survival, monitor: survival, group: Minecraft, description: play.blockhaven.example }
      - { name: Creative, monitor: creative, group: Minecraft }
      - { name: Website, monitor: website, group: Web }
    incidents:
      - key: survival-disconnects
        title: ${INCIDENT_TITLE}
        status: identified
        impact: minor
        startedAt: ${iso(now - 50 * 60_000)}
        components: [Survival]
        updates:
          - { at: ${iso(now - 50 * 60_000)}, status: investigating, message: Some players are disconnected from Survival when they teleport. }
          - { at: ${iso(now - 20 * 60_000)}, status: identified, message: A plugin is not ready for 1.21.4; an update is being tested. }
    maintenance:
      - key: switch-upgrade
        title: ${MAINTENANCE_TITLE}
        description: Our host replaces the core switches; Survival and Creative restart once.
        startsAt: ${iso(now + 2 * 24 * HOUR)}
        endsAt: ${iso(now + 2 * 24 * HOUR + 2 * HOUR)}
        components: [Survival, Creative]`;
  return `
organization: { key: blockhaven, name: Blockhaven Network }
monitors:
${heartbeat('survival', 'Survival', 'minecraft')}
${heartbeat('creative', 'Creative', 'minecraft')}
${heartbeat('website', 'Website', 'web')}
pages:${page(SHOWCASE_SLUG, '')}${page(STYLED_SLUG, '    customCss: |\n      .site-head { border-bottom: 4px solid #4752c4; }\n')}
`;
}

/** Players online at a time of day: a third at night, the peak in the evening (UTC). */
function playersAt(key: string, t: number): number {
  const peak = PEAK[key] ?? 0;
  const hour = new Date(t).getUTCHours() + new Date(t).getUTCMinutes() / 60;
  return Math.round(peak * (0.65 - 0.33 * Math.cos(((hour - 20) / 24) * 2 * Math.PI)));
}

/** A latency that wanders: busier in the evening, with some jitter, the same for the same time. */
function latencyAt(key: string, t: number): number {
  const base = key === 'website' ? 90 : 22;
  const step = Math.floor(t / (15 * 60_000));
  const jitter = ((step * 37 + key.length * 13) % 17) / 17;
  return Math.round(
    base * (1 + 0.25 * Math.sin(((new Date(t).getUTCHours() - 14) / 24) * 2 * Math.PI) + 0.6 * jitter * jitter),
  );
}

/** Thirty days of checks, hourly, then every 15 minutes over the last day; the website failed for two hours three days ago. */
function history(warden: SeededWarden, now: number): CheckRow[] {
  const rows: CheckRow[] = [];
  const times: number[] = [];
  for (let t = now - 30 * 24 * HOUR; t < now - 24 * HOUR; t += HOUR) times.push(t);
  for (let t = now - 24 * HOUR; t < now - 60_000; t += 15 * 60_000) times.push(t);
  for (const t of times) {
    for (const key of Object.keys(TOKENS)) {
      const monitorId = warden.monitors[key]?.id as string;
      const down = key === 'website' && t > now - 3 * 24 * HOUR && t <= now - 3 * 24 * HOUR + 2 * HOUR;
      const players = key in PEAK ? playersAt(key, t) : null;
      rows.push({
        monitorId,
        checkedAt: t,
        ok: !down,
        degraded: false,
        latencyMs: down ? null : latencyAt(key, t),
        message: null,
        error: down ? 'the sender reported down: HTTP 502 from the origin' : null,
        data: players === null ? null : { players, maxPlayers: key === 'survival' ? 100 : 50 },
        source: 'push',
        resultId: null,
      });
    }
  }
  return rows;
}

function current(key: string, now: number): Record<string, unknown> {
  const players = key in PEAK ? { players: playersAt(key, now), maxPlayers: key === 'survival' ? 100 : 50 } : {};
  return { status: 'up', latency: latencyAt(key, now), ...players };
}

async function push(url: string, token: string, body: object): Promise<void> {
  const answer = await fetch(`${url}/api/push/${token}`, { method: 'POST', body: JSON.stringify(body) });
  if (answer.status !== 200) throw new Error(`push: ${answer.status} ${await answer.text()}`);
}
