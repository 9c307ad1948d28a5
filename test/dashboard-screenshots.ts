// The dashboard's pictures in docs/dashboard.md (`npm run screenshots`): a real Warden holding a small game network —
// monitors run by a relay whose results (a day of them) arrive through the relay API, heartbeats, a page with an
// incident and maintenance, channels, keys, members — each main screen captured in Chromium, light at 1280×800, two
// dark, one at phone width; each checked for what a reader notices first (not blank, light or dark).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { signedInUser } from './accounts.js';
import { startReceiver } from './fakes/notify-receivers.js';
import { DARK_LUMINANCE_MAX, distinctColours, LIGHT_LUMINANCE_MIN, meanLuminance, readPng } from './pixels.js';
import { startSeededWarden } from './seeded-warden.js';
import { dialects } from './store-dialects.js';

const IMAGES = join(process.cwd(), 'docs', 'images');
const RELAY_TOKEN = 'wdr_screenshotsHomeLabRelayToken0123';
const BACKUPS = 'wdp_screenshotsBackupsHeartbeat0123';
const BOT = 'wdp_screenshotsDiscordBotHeartbeat01';
const HOUR = 3600_000;

const iso = (ms: number) => new Date(ms).toISOString();

function networkYaml(now: number): string {
  const relay = (key: string, name: string, type: string, config: string, extra = '') =>
    `  - { key: ${key}, name: ${name}, type: ${type}, runOn: relay, relay: home-lab, intervalSec: 60, ${extra}config: ${config} }`;
  return `
organization: { key: blockhaven, name: Blockhaven Network }
relays:
  - { key: home-lab, name: Home lab, token: ${RELAY_TOKEN} }
monitors:
${relay('survival', 'Survival', 'minecraft-java', '{ host: 10.0.0.5 }', 'tags: [minecraft, eu], ')}
${relay('creative', 'Creative', 'minecraft-java', '{ host: 10.0.0.6 }', 'tags: [minecraft, eu], ')}
${relay('skyblock', 'Skyblock', 'minecraft-java', '{ host: 10.0.0.7 }', 'tags: [minecraft, us], degradedLatencyMs: 150, ')}
${relay('modded', 'Modded (ATM9)', 'minecraft-java', '{ host: 10.0.0.8 }', 'tags: [minecraft, eu], ')}
${relay('bedrock', 'Bedrock', 'minecraft-bedrock', '{ host: 10.0.0.9 }', 'tags: [minecraft, eu], ')}
${relay('proxy', 'Velocity proxy', 'tcp', '{ host: 10.0.0.5, port: 25577 }', 'tags: [infra], ')}
${relay('website', 'Website', 'http', '{ url: "https://blockhaven.example/" }', 'tags: [web], ')}
  - { key: backups, name: Nightly backups, type: heartbeat, pushToken: ${BACKUPS}, tags: [infra], config: { graceSec: 90000 } }
  - { key: discord-bot, name: Discord bot, type: heartbeat, pushToken: ${BOT}, tags: [community], config: { graceSec: 600 } }
pages:
  - slug: blockhaven
    title: Blockhaven status
    description: Live status of the Blockhaven servers
    components:
      - { name: Survival, monitor: survival, group: Minecraft }
      - { name: Creative, monitor: creative, group: Minecraft }
      - { name: Skyblock, monitor: skyblock, group: Minecraft }
      - { name: Modded, monitor: modded, group: Minecraft }
      - { name: Bedrock, monitor: bedrock, group: Minecraft }
      - { name: Website, monitor: website, group: Web }
      - { name: Discord bot, monitor: discord-bot, group: Community }
    maintenance:
      - key: switch-upgrade
        title: Core switch upgrade
        description: Our host replaces the core switches; expect short interruptions.
        startsAt: ${iso(now + 3 * 24 * HOUR)}
        endsAt: ${iso(now + 3 * 24 * HOUR + 2 * HOUR)}
        components: [Survival, Creative]
    incidents:
      - key: lobby-lag
        title: Lag spikes on Survival
        status: resolved
        impact: minor
        startedAt: ${iso(now - 4 * 24 * HOUR)}
        components: [Survival]
        updates:
          - { at: ${iso(now - 4 * 24 * HOUR + 5 * 60_000)}, status: investigating, message: Players report lag spikes on Survival. }
          - { at: ${iso(now - 4 * 24 * HOUR + 90 * 60_000)}, status: resolved, message: A plugin was leaking memory; it is updated. }
notifications:
  - { key: ops-discord, name: Ops on Discord, type: discord, enabled: false, config: { url: "https://discord.com/api/webhooks/1/not-real" } }
`;
}

/** What each relay monitor reported at `times` (the last one: now): players, latency, failures. */
function relayResults(ids: Record<string, string>, now: number, times: number[]) {
  const results: Record<string, unknown>[] = [];
  const players = { survival: 48, creative: 12, skyblock: 31, modded: 9, bedrock: 17 } as Record<string, number>;
  for (const t of times) {
    const hour = new Date(t).getUTCHours();
    const wave = Math.round(Math.sin(((hour - 6) / 24) * 2 * Math.PI) * 10);
    for (const [key, id] of Object.entries(ids)) {
      const last = t === times.at(-1);
      const down = key === 'modded' && now - t < 2 * HOUR;
      const latency =
        key === 'skyblock' && last
          ? 190
          : 18 + ((Math.floor(t / 60_000) + key.length * 7) % 23) + (key === 'website' ? 80 : 0);
      const count = Math.max(0, (players[key] ?? 0) + wave);
      const data =
        key in players ? { players: count, maxPlayers: key === 'survival' ? 100 : 50, version: '1.21.4' } : null;
      results.push({
        id: `${key}-${t}`,
        monitorId: id,
        checkedAt: t,
        ...(down
          ? { ok: false, error: 'connect ECONNREFUSED 10.0.0.8:25565' }
          : {
              ok: true,
              latencyMs: latency,
              message: data ? `${count}/${data.maxPlayers} players · 1.21.4` : 'open',
              ...(data ? { data } : {}),
            }),
      });
    }
  }
  return results;
}

/** Waits until a screen has drawn its content: its heading, no loader, no request under way, charts laid out. */
async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () =>
      !document.querySelector('main .mantine-Loader-root') &&
      !/Loading/.test(document.querySelector('main')?.textContent ?? ''),
    null,
    { timeout: 10_000 },
  );
  await page.waitForTimeout(400);
}

/** Saves docs/images/dashboard-<name>.png of the viewport, after checking it is neither blank nor the wrong scheme. */
export async function shoot(page: Page, name: string, looks: 'light' | 'dark'): Promise<void> {
  const bytes = await page.screenshot();
  const png = readPng(bytes);
  if (distinctColours(png) < 20) throw new Error(`dashboard-${name}.png looks blank`);
  const luminance = meanLuminance(png);
  if (looks === 'dark' ? luminance >= DARK_LUMINANCE_MAX : luminance <= LIGHT_LUMINANCE_MIN)
    throw new Error(`dashboard-${name}.png does not look ${looks} (mean luminance ${luminance.toFixed(2)})`);
  writeFileSync(join(IMAGES, `dashboard-${name}.png`), bytes);
  console.log(`docs/images/dashboard-${name}.png: ${png.width}×${png.height}`);
}

export async function dashboardScreenshots(browser: Browser): Promise<void> {
  mkdirSync(IMAGES, { recursive: true });
  const now = Date.now();
  const receiver = await startReceiver({ status: 204 });
  const sqlite = dialects.find((d) => d.name === 'sqlite');
  if (!sqlite) throw new Error('no SQLite dialect');
  const warden = await startSeededWarden(sqlite, networkYaml(now));
  try {
    const { testContext } = await import('./seed.js');
    const context = {
      ...testContext(warden.opened.store, { now: () => Date.now() }),
      organizationId: warden.organizationId,
    };
    const owner = await addMembers(context, warden.organizationId);
    // The relay's day of results, through the relay API, as an agent sends them.
    const relayIds = Object.fromEntries(
      ['survival', 'creative', 'skyblock', 'modded', 'bedrock', 'proxy', 'website'].map((k) => [
        k,
        warden.monitors[k]?.id as string,
      ]),
    );
    const report = async (times: number[]) => {
      const sent = await fetch(`${warden.url}/api/relay/results`, {
        method: 'POST',
        headers: { authorization: `Bearer ${RELAY_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ results: relayResults(relayIds, now, times) }),
      });
      const answer = (await sent.json()) as { rejected?: unknown[] };
      if (sent.status !== 200 || (answer.rejected?.length ?? 0) > 0)
        throw new Error(`relay results: ${sent.status} ${JSON.stringify(answer).slice(0, 500)}`);
    };
    // A day, every 30 minutes, and a result just now; then a fresh one before each set, so nothing goes stale meanwhile.
    await report([...Array.from({ length: 48 }, (_, i) => now - 24 * HOUR + i * 30 * 60_000), now - 5000]);
    const fresh = () => report([Date.now() - 1000]);
    const push = (token: string, body: object) =>
      fetch(`${warden.url}/api/push/${token}`, { method: 'POST', body: JSON.stringify(body) });
    await push(BACKUPS, { status: 'up', latency: 5400, msg: 'backup 42 GB in 5.4 s' });
    await push(BOT, { status: 'down', msg: 'gateway disconnected' });

    await ownerActions(warden.url, owner.cookie, receiver.url);

    const screens: { name: string; path: string; prepare?: (page: Page) => Promise<void> }[] = [
      { name: 'monitors', path: '/app/monitors' },
      { name: 'monitor', path: `/app/monitors/${relayIds.survival}` },
      { name: 'monitor-form', path: '/app/monitors/new' },
      { name: 'pages', path: '/app/pages' },
      { name: 'page', path: '/app/pages/blockhaven' },
      { name: 'incidents', path: '/app/incidents' },
      { name: 'reports', path: '/app/reports', prepare: (page) => page.locator('figure canvas').first().waitFor() },
      { name: 'relays', path: '/app/relays' },
      {
        name: 'notifications',
        path: '/app/notifications',
        prepare: async (page) => {
          await page.getByRole('button', { name: 'Deliveries of Ops webhook' }).click();
          await page.getByRole('table', { name: /deliveries of Ops webhook/ }).waitFor();
        },
      },
      { name: 'api-keys', path: '/app/settings/api-keys' },
      { name: 'members', path: '/app/settings/members' },
      { name: 'audit-log', path: '/app/settings/audit-log' },
      { name: 'account', path: '/app/account' },
    ];
    const open = async (
      looks: 'light' | 'dark',
      viewport: { width: number; height: number },
      deviceScaleFactor = 1,
    ) => {
      const ctx = await browser.newContext({ colorScheme: looks, viewport, deviceScaleFactor });
      await ctx.addCookies([{ name: 'warden_session', value: owner.token, url: warden.url }]);
      return { ctx, page: await ctx.newPage() };
    };
    const light = await open('light', { width: 1280, height: 800 });
    try {
      for (const screen of screens) {
        await light.page.goto(`${warden.url}${screen.path}`);
        await settled(light.page);
        await screen.prepare?.(light.page);
        await settled(light.page);
        await shoot(light.page, screen.name, 'light');
      }
    } finally {
      await light.ctx.close();
    }
    await fresh();
    const dark = await open('dark', { width: 1280, height: 800 });
    try {
      for (const screen of screens.filter((s) => s.name === 'monitors' || s.name === 'monitor')) {
        await dark.page.goto(`${warden.url}${screen.path}`);
        await settled(dark.page);
        await shoot(dark.page, `${screen.name}-dark`, 'dark');
      }
    } finally {
      await dark.ctx.close();
    }
    await fresh();
    const phone = await open('light', { width: 390, height: 844 }, 2);
    try {
      await phone.page.goto(`${warden.url}/app/monitors`);
      await settled(phone.page);
      await shoot(phone.page, 'monitors-phone', 'light');
    } finally {
      await phone.ctx.close();
    }
  } finally {
    await warden.close();
    await receiver.close();
  }
}

/** The organization's people: its owner (returned, signed in), an admin, an editor and a viewer. */
async function addMembers(context: Parameters<typeof signedInUser>[0], organizationId: string) {
  const owner = await signedInUser(context, [{ organizationId, role: 'owner' }], {
    name: 'Olive Owner',
    email: 'olive@blockhaven.example',
  });
  await signedInUser(context, [{ organizationId, role: 'admin' }], {
    name: 'Marco Rossi',
    email: 'marco@blockhaven.example',
  });
  await signedInUser(context, [{ organizationId, role: 'editor' }], {
    name: 'Aiko Tanaka',
    email: 'aiko@blockhaven.example',
  });
  await signedInUser(context, [{ organizationId, role: 'viewer' }], {
    name: 'Sam Okafor',
    email: 'sam@blockhaven.example',
  });

  return owner;
}

/** What the owner did in the dashboard: a second relay, a webhook channel with a test, a key, an incident, an invitation. */
async function ownerActions(url: string, cookie: string, receiverUrl: string): Promise<void> {
  // What the owner did in the dashboard: a second relay, a webhook channel with a test, a key, an incident, an invitation.
  const api = async (method: string, path: string, body?: object) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { cookie: cookie, origin: url, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  await api('POST', '/api/v1/relays', { key: 'eu-basement', name: 'EU basement' });
  const secret = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
  await api('POST', '/api/v1/notification-channels', {
    key: 'ops-webhook',
    name: 'Ops webhook',
    type: 'webhook',
    config: { url: `${receiverUrl}/warden`, secret },
    rules: { events: ['monitor.down', 'monitor.recovered', 'incident.created'], holdSec: 60 },
  });
  await api('POST', '/api/v1/notification-channels/ops-webhook/test');
  await api('POST', '/api/v1/api-keys', { name: 'Grafana exporter', scope: 'read' });
  await api('POST', '/api/v1/pages/blockhaven/incidents', {
    title: 'Modded server unreachable',
    status: 'identified',
    impact: 'major',
    message: 'The Modded server stopped answering after its nightly restart; we are restoring it.',
    components: ['Modded'],
  });
  await api('POST', '/api/v1/invitations', { email: 'new.moderator@blockhaven.example', role: 'editor' });
}
