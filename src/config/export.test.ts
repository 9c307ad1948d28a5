import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seed, testContext } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { exportCommand } from '../cli/commands/export.js';
import { verifyPassword } from '../domain/passwords.js';
import { createComponent } from '../services/components/write.js';
import { createIncident } from '../services/incidents/write.js';
import { createMaintenance } from '../services/maintenance/write.js';
import { createMonitor } from '../services/monitors/write.js';
import { createChannel, deleteChannel } from '../services/notifications/write.js';
import { putPageAsset } from '../services/pages/assets.js';
import type { Store } from '../store/index.js';
import { applyConfig } from './apply.js';
import { exportConfig } from './export.js';
import { parseConfigText } from './load.js';

const T0 = Date.parse('2026-12-01T12:00:00Z');

/** Every secret the organization holds, by the variable the export names it with. */
const SECRETS: Record<string, string> = {
  // The probe keeps every header secret (any may carry a credential), so each has a variable; their names stay readable.
  MONITOR_API_HEADERS_ACCEPT: 'application/json',
  MONITOR_API_HEADERS_AUTHORIZATION: 'Bearer api-s3cret',
  MONITOR_RUST_MAIN_PASSWORD: 'rust-rcon-s3cret',
  MONITOR_SURVIVAL_PANEL_APIKEY: 'ptlc_panel_s3cret',
  MONITOR_TF2_RCON_PASSWORD: 'tf2-rcon-s3cret',
  NOTIFY_CHAT_BOTTOKEN: '123456789:AAbbCCddEEffGGhhIIjjKKllMM',
  NOTIFY_DISCORD_URL: 'https://discord.com/api/webhooks/1/discord-s3cret',
  NOTIFY_MAIL_PASSWORD: 'smtp-s3cret',
  NOTIFY_NTFY_TOKEN: 'tk_ntfys3cretntfys3cret',
  NOTIFY_OPS_HEADERS_AUTHORIZATION: 'Bearer ops-s3cret',
  NOTIFY_OPS_SECRET: `whsec_${Buffer.alloc(32, 9).toString('base64')}`,
  NOTIFY_SLACK_URL: 'https://hooks.slack.com/services/T0/B0/slack-s3cret',
  NOTIFY_TEAMS_URL: 'https://acme.webhook.office.com/webhookb2/teams-s3cret',
  PAGE_PRIVATE_PASSWORD: 'correct horse battery',
};

/** One of everything: warden.example.yaml's monitor of every type, each channel type, two pages using every page field. */
const ORGANIZATION = `
organization: { key: acme, name: Acme Network, probePrivateTargets: deny }
relays: [{ key: home-lab, name: Home lab }]
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, intervalSec: 30, config: { host: mc.example.com, minPlayers: 1 }, notify: [ops, chat] }
  - { key: bedrock, name: Bedrock, type: minecraft-bedrock, config: { host: bedrock.example.com, port: 19132 } }
  - { key: cs2, name: Counter-Strike 2, type: source, config: { host: cs.example.com, port: 27015 } }
  - { key: roleplay, name: Roleplay, type: fivem, config: { host: fivem.example.com, port: 30120, https: false } }
  - { key: rust-main, name: Rust main, type: rust-webrcon, config: { host: rust.example.com, port: 28016, password: "${SECRETS.MONITOR_RUST_MAIN_PASSWORD}" } }
  - { key: tf2-rcon, name: TF2 console, type: rcon, config: { host: tf2.example.com, port: 27015, password: "${SECRETS.MONITOR_TF2_RCON_PASSWORD}", command: status, expect: hostname } }
  - { key: survival-panel, name: Survival, type: pterodactyl, config: { panelUrl: "https://panel.example.com", serverId: 1a7ce997, apiKey: "${SECRETS.MONITOR_SURVIVAL_PANEL_APIKEY}" } }
  - { key: valheim, name: Valheim, type: gamedig, runOn: relay, relay: home-lab, config: { game: valheim, host: 192.168.1.20, port: 2457 } }
  - { key: discord, name: Discord community, type: discord, config: { mode: widget, guildId: "81384788765712384" } }
  - { key: website, name: Website, type: http, degradedLatencyMs: 1500, retries: 3, timeoutMs: 4000, tags: [web, eu], enabled: false,
      config: { url: "https://www.example.com/", expectedStatus: "200-299", keyword: Welcome, maxRedirects: 2 } }
  - { key: api, name: Public API, type: http,
      config: { url: "https://api.example.com/health", expectedStatus: [200], jsonPath: $.status, jsonExpected: ok, headers: { Accept: "${SECRETS.MONITOR_API_HEADERS_ACCEPT}", Authorization: "${SECRETS.MONITOR_API_HEADERS_AUTHORIZATION}" } } }
  - { key: proxy, name: Velocity proxy, type: tcp, runOn: relay, relay: home-lab, config: { host: 10.0.0.5, port: 25577 } }
  - { key: mail, name: Mail, type: tls, config: { host: mail.example.com, port: 465, certExpiryDays: 21 } }
  - { key: mx, name: Mail DNS, type: dns, config: { hostname: example.com, recordType: MX } }
  - { key: backup, name: Nightly backup, type: heartbeat, config: { graceSec: 90000 } }
notifications:
  - { key: ops, name: Ops, type: webhook,
      config: { url: "https://hooks.example.com/warden", secret: "${SECRETS.NOTIFY_OPS_SECRET}", headers: { Authorization: "${SECRETS.NOTIFY_OPS_HEADERS_AUTHORIZATION}" } },
      rules: { events: [monitor.down, monitor.recovered], monitors: [lobby], holdSec: 120, flap: { changes: 4, windowMin: 20 }, quietDuringMaintenance: false } }
  - { key: discord, name: Discord, type: discord, config: { url: "${SECRETS.NOTIFY_DISCORD_URL}" } }
  - { key: slack, name: Slack, type: slack, config: { url: "${SECRETS.NOTIFY_SLACK_URL}" }, enabled: false }
  - { key: teams, name: Teams, type: teams, config: { url: "${SECRETS.NOTIFY_TEAMS_URL}" } }
  - { key: chat, name: Chat, type: telegram, config: { botToken: "${SECRETS.NOTIFY_CHAT_BOTTOKEN}", chatId: -1001234 } }
  - { key: ntfy, name: ntfy, type: ntfy, config: { url: "https://ntfy.sh/acme", token: "${SECRETS.NOTIFY_NTFY_TOKEN}" } }
  - { key: mail, name: Mail, type: email, config: { to: [ops@acme.test], from: status@acme.test, host: smtp.acme.test, port: 587, username: warden, password: "${SECRETS.NOTIFY_MAIL_PASSWORD}" } }
pages:
  - slug: acme
    title: Acme Network
    description: Live status of our servers
    customDomain: status.acme.test
    aiPolicy: disallow
    notify: [ops]
    subscriptions: true
    language: de
    timeZone: Europe/Berlin
    branding: { accentColor: "#4752c4", logoUrl: "https://acme.test/logo.png", links: [{ label: Discord, url: "https://discord.gg/acme" }], footerText: Since 2019, hidePoweredBy: true }
    customCss: ".header { letter-spacing: 0.02em; }"
    components:
      - { name: Lobby, monitor: lobby, group: Minecraft }
      - { key: bedrock, name: Bedrock Edition, monitor: bedrock, group: Minecraft, description: Port 19132 }
      - { name: Website, monitor: website }
      - { name: Backups, monitor: backup, group: Infrastructure }
    maintenance:
      - { key: 2027-01-network, title: Network upgrade, description: Core switches., startsAt: "2027-01-10T02:00:00Z", endsAt: "2027-01-10T04:00:00Z", components: [Lobby, bedrock] }
    incidents:
      - key: lobby-lag
        title: Lobby lag spikes
        status: resolved
        impact: major
        startedAt: "2026-11-01T18:00:00Z"
        components: [Lobby]
        updates:
          - { at: "2026-11-01T18:05:00Z", status: investigating, message: Players report lag. }
          - { at: "2026-11-01T19:30:00Z", status: resolved, message: A plugin leaked memory. }
      - { key: dns-outage, title: DNS outage, status: resolved, startedAt: "2026-10-01T00:00:00Z", resolvedAt: "2026-10-01T06:00:00Z", updates: [{ at: "2026-10-01T01:00:00Z", status: identified, message: Our DNS host is down. }] }
  - slug: private
    title: Staff status
    password: "${SECRETS.PAGE_PRIVATE_PASSWORD}"
    components: [{ name: Proxy, monitor: proxy }]
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`warden export on ${dialect.name}`, () => {
    let source: OpenedStore;
    let target: OpenedStore;
    let dir: string;
    const saved = { ...process.env };
    let stderr = '';

    beforeEach(async () => {
      [source, target] = await Promise.all([dialect.open(), dialect.open()]);
      dir = mkdtempSync(join(tmpdir(), 'warden-export-'));
      const { report } = await seed(source.store, ORGANIZATION, T0);
      // What the API makes beside the file: objects without keys, a name that looks like a variable.
      const api = { ...testContext(source.store, { now: () => T0 }), organizationId: report.organization.id };
      await createMonitor(api, {
        key: 'costs',
        name: 'Costs ${NOT_A_VARIABLE} and $${ALSO_NOT}',
        type: 'tcp',
        config: { host: 'db.example.com', port: 5432 },
      });
      await createComponent(
        { ...api },
        { slug: 'acme', name: 'Database', monitor: 'costs', description: 'Needs ${DB_HOST}' },
      );
      await createIncident(api, {
        slug: 'acme',
        title: 'Database slow',
        impact: 'critical',
        message: 'Looking into it.',
        components: ['Database'],
      });
      await createMaintenance(api, {
        slug: 'acme',
        title: 'Database upgrade',
        startsAt: T0 + 86_400_000,
        endsAt: T0 + 90_000_000,
      });
      Object.assign(process.env, source.env, { LOG_LEVEL: 'silent' });
      stderr = '';
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
        stderr += String(chunk);
        return true;
      });
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      process.env = { ...saved };
      rmSync(dir, { recursive: true, force: true });
      await Promise.all([source.cleanup(), target.cleanup()]);
    });

    it('gives the same objects when the export is applied to an empty database, and the same file when exported again', async () => {
      const file = join(dir, 'warden.yaml');
      await exportCommand().parseAsync(['--org', 'acme', '-o', file], { from: 'user' });
      const text = readFileSync(file, 'utf8');

      // No secret is in the file; each is a placeholder the header and standard error name.
      for (const [variable, secret] of Object.entries(SECRETS))
        if (variable !== 'MONITOR_API_HEADERS_ACCEPT') expect(text).not.toContain(secret.replace(/^Bearer /, ''));
      const body = text.replace(/^#.*\n/gm, '');
      const named = [...body.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]);
      expect(new Set(named)).toEqual(new Set(Object.keys(SECRETS)));
      for (const variable of Object.keys(SECRETS)) expect(text).toMatch(new RegExp(`^#\\s+${variable}\\s+\\S`, 'm'));
      expect(stderr).toContain('exported organization acme');
      expect(stderr).toContain('NOTIFY_OPS_SECRET');
      // What cannot be exported is said.
      expect(text).toMatch(/Push tokens are stored only as hashes: the push monitors \(backup\) get new tokens/);
      expect(text).toMatch(/warden relays token KEY` for home-lab/);
      // Defaults are left out; what differs from them is kept.
      expect(text).not.toMatch(/intervalSec: 60\b|timeoutMs: 10000|enabled: true|aiPolicy: allow|method: GET/);
      expect(text).toContain('enabled: false');

      await applyConfig(testContext(target.store, { now: () => T0 + 1000 }), parseConfigText(text, file, SECRETS));
      const [before, after] = await Promise.all([contents(source.store), contents(target.store)]);
      expect(after).toEqual(before);
      for (const field of ['monitors', 'pages', 'channels'] as const) expect(after[field].length).toBeGreaterThan(1);
      const privatePage = await target.store.pages.findBySlug('private');
      expect(await verifyPassword(SECRETS.PAGE_PRIVATE_PASSWORD as string, privatePage?.passwordHash ?? '')).toBe(true);

      const organizationId = (await target.store.organizations.list()).find((o) => o.key === 'acme')?.id;
      const again = await exportConfig({ ...testContext(target.store), organizationId });
      expect(again.text).toBe(text);
    });

    it('names what the file cannot carry: uploaded images, channels deleted while still named', async () => {
      const organizationId = (await source.store.organizations.list()).find((o) => o.key === 'acme')?.id;
      const ctx = { ...testContext(source.store, { now: () => T0 }), organizationId };
      const png = Buffer.from(
        '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a0b50000000049454e44ae426082',
        'hex',
      );
      await putPageAsset(ctx, { slug: 'acme', name: 'logo', body: png });
      // A channel deleted through the API stays named by the monitor that named it, where the file cannot name it.
      await createChannel(ctx, {
        key: 'pager',
        name: 'Pager',
        type: 'ntfy',
        config: { url: 'https://ntfy.sh/acme-pager' },
      });
      await createMonitor(ctx, {
        key: 'paged',
        name: 'Paged',
        type: 'tcp',
        config: { host: 'example.com', port: 22 },
        notify: ['pager', 'ops'],
      });
      await deleteChannel(ctx, { key: 'pager' });
      const { text } = await exportConfig(ctx);
      expect(text).toMatch(/^# +- Page acme: the uploaded logo image\(s\) are not in this file/m);
      expect(text).toMatch(
        /^# +- Monitor paged names deleted notification channel\(s\) pager: left out of its notify\.$/m,
      );
      expect(text).toMatch(/- key: paged\n(?: {4}.*\n)*? {4}notify:\n {6}- ops\n/);
      expect(text).toMatch(/^# +- Check history, users and members, API keys/m);
    });
  });
}

/** The organization's objects as a person compares them: keys instead of ids, no timestamps of the store's own. */
async function contents(store: Store) {
  const organization = (await store.organizations.list()).find((o) => o.key === 'acme');
  if (!organization) throw new Error('no organization acme');
  const [relays, monitors, pages, channels] = await Promise.all([
    store.relays.list(organization.id),
    store.monitors.list(organization.id),
    store.pages.list(organization.id),
    store.channels.list(organization.id),
  ]);
  const relayKeys = new Map(relays.map((r) => [r.id, r.key]));
  const monitorKeys = new Map(monitors.map((m) => [m.id, m.key]));
  const byKey = <T extends { key: string }>(items: T[]) => items.sort((a, b) => (a.key < b.key ? -1 : 1));
  return {
    organization: {
      key: organization.key,
      name: organization.name,
      probePrivateTargets: organization.probePrivateTargets,
    },
    relays: byKey(relays.map((r) => ({ key: r.key, name: r.name }))),
    monitors: byKey(
      monitors.map((m) => ({
        key: m.key,
        name: m.name,
        type: m.type,
        config: m.config,
        intervalSec: m.intervalSec,
        timeoutMs: m.timeoutMs,
        runOn: m.runOn,
        relay: m.relayId === null ? null : relayKeys.get(m.relayId),
        enabled: m.enabled,
        retries: m.retries,
        degradedLatencyMs: m.degradedLatencyMs,
        notify: m.notify,
        tags: m.tags,
        pushToken: m.pushTokenPrefix !== null,
      })),
    ),
    pages: await Promise.all(
      byKey(pages.map((p) => ({ ...p, key: p.slug }))).map(async (p) => {
        const components = (await store.components.list(p.id)).sort((a, b) => a.order - b.order);
        const componentKeys = new Map(components.map((c) => [c.id, c.key]));
        const keysOf = (ids: string[]) => ids.map((id) => componentKeys.get(id)).sort();
        return {
          slug: p.slug,
          title: p.title,
          description: p.description,
          customDomain: p.customDomain,
          domainServes: p.customDomain === null || p.customDomainVerifiedAt !== null,
          passwordProtected: p.passwordHash !== null,
          aiPolicy: p.aiPolicy,
          notify: p.notify,
          subscriptions: p.subscriptions,
          language: p.language,
          timeZone: p.timeZone,
          branding: p.branding,
          customCss: p.customCss,
          // Their order on the page (the file gives each its place by position, not the stored number).
          components: components.map((c) => ({
            key: c.key,
            name: c.name,
            description: c.description,
            group: c.group,
            monitor: c.monitorId && monitorKeys.get(c.monitorId),
          })),
          incidents: byKey(
            (await store.incidents.list(p.id, { limit: 1000 })).map((i) => ({
              key: i.key ?? i.id,
              title: i.title,
              status: i.status,
              impact: i.impact,
              startedAt: i.startedAt,
              resolvedAt: i.resolvedAt,
              components: keysOf(i.componentIds),
              updates: i.updates.map((u) => ({ at: u.at, status: u.status, message: u.message })),
            })),
          ),
          maintenance: byKey(
            (await store.maintenance.list(p.id)).map((m) => ({
              key: m.key ?? m.id,
              title: m.title,
              description: m.description,
              startsAt: m.startsAt,
              endsAt: m.endsAt,
              components: keysOf(m.componentIds),
            })),
          ),
        };
      }),
    ),
    channels: byKey(
      channels.map((c) => ({
        key: c.key,
        name: c.name,
        type: c.type,
        config: c.config,
        rules: c.rules,
        enabled: c.enabled,
      })),
    ),
  };
}
