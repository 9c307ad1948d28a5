// The dashboard's monitor screens in real Chromium against a real Warden and the fake servers of test/fakes: one monitor
// of every type that runs on the edge created through the generated form (and tested from it), the detail screen
// (chart, recent checks, check now, state history, pause and resume, delete), editing with a secret kept, a push
// monitor's token shown once, warden.yaml's monitors read-only, and no serious accessibility violation.
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser } from '../accounts.js';
import { launchChromium } from '../browser.js';
import { startA2sServer } from '../fakes/a2s-server.js';
import { startAmqpFake } from '../fakes/amqp-server.js';
import { startFakeBedrockServer } from '../fakes/bedrock-server.js';
import { certificateAuthority, serverCertificate } from '../fakes/certificates.js';
import { startDnsFake } from '../fakes/dns-server.js';
import { startDockerEngineFake } from '../fakes/docker-engine.js';
import { startEchoServer } from '../fakes/echo-server.js';
import { pterodactylServer, startDiscordFake, startFivemFake, startPterodactylFake } from '../fakes/game-api-fakes.js';
import { startGrpcServer } from '../fakes/grpc-server.js';
import { startWebsiteFake } from '../fakes/http-fakes.js';
import { startFakeJavaServer } from '../fakes/minecraft-java-server.js';
import { startMongoFake } from '../fakes/mongodb-server.js';
import { startMqttFake } from '../fakes/mqtt-broker.js';
import { startMysqlFake } from '../fakes/mysql-server.js';
import { startNatsFake } from '../fakes/nats-server.js';
import { startPostgresFake } from '../fakes/postgres-server.js';
import { startRconServer } from '../fakes/rcon-server.js';
import { inDays, startRdapServer } from '../fakes/rdap-server.js';
import { startRustWebrconServer } from '../fakes/rust-webrcon-server.js';
import {
  dovecotImap,
  dovecotPop3,
  startLineServer,
  startScriptedTcp,
  startUdpResponder,
} from '../fakes/service-servers.js';
import { startSmtpFake } from '../fakes/smtp-server.js';
import { startTlsServer } from '../fakes/tls-servers.js';
import { startWsFake } from '../fakes/ws-server.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';

const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: backups, name: Nightly backups, type: heartbeat, config: { graceSec: 600 } }
`;
const GUILD = '111111111111111111';
const PANEL_KEY = 'ptlc_dashboardPanelKey';
const RCON_PASSWORD = 'rcon-secret';
const RUST_PASSWORD = 'rust-secret';

const seeding = () => import('../seed.js');

/** What the form needs, field label by field label, to point each type at its fake. */
type FormInput = Record<string, string>;

describe('the dashboard’s monitor screens', () => {
  let warden: SeededWarden;
  let browser: Browser;
  let owner: SignedInUser;
  let tcp: Server;
  const closers: (() => Promise<unknown>)[] = [];
  const inputs: Record<string, FormInput> = {};

  beforeAll(async () => {
    const java = await startFakeJavaServer({
      kind: 'status',
      status: { version: { name: '1.21.4', protocol: 769 }, players: { online: 12, max: 100 }, description: 'Lobby' },
    });
    const bedrock = await startFakeBedrockServer({
      kind: 'pong',
      advertisement: 'MCPE;Warden Test;766;1.21.50;3;20;1234567890123;Level;Survival;1;19132;19133;',
    });
    const a2s = await startA2sServer();
    const fivem = await startFivemFake();
    const rust = await startRustWebrconServer({ password: RUST_PASSWORD });
    const rcon = await startRconServer({ password: RCON_PASSWORD });
    const panel = await startPterodactylFake({ apiKey: PANEL_KEY, servers: { d3aac109: pterodactylServer() } });
    const discord = await startDiscordFake({
      botToken: 'unused',
      guilds: {
        [GUILD]: {
          name: 'Warden',
          widgetEnabled: true,
          presenceCount: 7,
          memberCount: 20,
          instantInvite: null,
          botIsMember: false,
        },
      },
    });
    const site = await startWebsiteFake();
    const dns = await startDnsFake({ 'example.test': { A: [{ address: '192.0.2.7' }] } });
    const rdap = await startRdapServer({ 'example.test': { expiresAt: inDays(200) } });
    // Databases and brokers: fakes speaking each protocol (the real servers have tests of their own).
    const databases = {
      postgres: await startPostgresFake({ password: 'pg-password' }),
      mysql: await startMysqlFake(),
      redis: await startEchoServer(),
      mongodb: await startMongoFake(),
      mqtt: await startMqttFake(),
      amqp: await startAmqpFake(),
      nats: await startNatsFake({ user: 'monitor', pass: 'nats-password' }),
    };
    for (const database of Object.values(databases)) closers.push(database.close);
    // A TLS port whose certificate a private CA signed: the form's CA field makes it trusted.
    const authority = await certificateAuthority();
    const panelTls = await startTlsServer(await serverCertificate({ issuer: authority }));
    closers.push(panelTls.close);
    // The service types: SSH, UDP, WebSocket, mail over STARTTLS with the private CA, gRPC health, a Docker Engine API.
    const mailCertificate = await serverCertificate({ issuer: authority });
    const services = {
      ssh: await startScriptedTcp((socket) => socket.write('SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5\r\n')),
      udp: await startUdpResponder((datagram) => [datagram]),
      websocket: await startWsFake((socket) => socket.on('message', (data) => socket.send(data))),
      smtp: await startSmtpFake({ tls: mailCertificate }),
      imap: await startLineServer(dovecotImap(mailCertificate)),
      pop3: await startLineServer(dovecotPop3(mailCertificate)),
      grpc: await startGrpcServer({ '': 'SERVING' }),
      docker: await startDockerEngineFake([
        { name: 'web', id: 'f'.repeat(64), state: { Status: 'running', Running: true } },
      ]),
    };
    closers.push(...Object.values(services).map((service) => service.close));
    tcp = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    closers.push(
      java.close,
      bedrock.close,
      a2s.close,
      fivem.close,
      rust.close,
      rcon.close,
      panel.close,
      discord.close,
      site.close,
      dns.close,
      rdap.close,
    );
    const at = (port: number) => ({ Host: '127.0.0.1', Port: String(port) });
    Object.assign(inputs, {
      'minecraft-java': at(java.port),
      'minecraft-bedrock': at(bedrock.port),
      source: at(a2s.port),
      fivem: at(fivem.port),
      'rust-webrcon': { ...at(rust.port), Password: RUST_PASSWORD },
      rcon: { ...at(rcon.port), Password: RCON_PASSWORD },
      pterodactyl: { 'Panel URL': panel.url, 'Server ID': 'd3aac109', 'API key': PANEL_KEY },
      discord: { 'Guild ID': GUILD, 'API base URL': discord.apiBaseUrl },
      http: { URL: `${site.url}/ok` },
      tcp: at((tcp.address() as AddressInfo).port),
      dns: { Hostname: 'example.test', Resolver: dns.address },
      tls: { ...at(panelTls.port), CA: authority.cert },
      ping: { Host: '127.0.0.1' },
      'domain-expiry': { Domain: 'example.test', 'RDAP URL': rdap.base },
      ...Object.fromEntries(Object.entries(databases).map(([type, service]) => [type, at(service.port)])),
      ssh: at(services.ssh.port),
      udp: { ...at(services.udp.port), Payload: 'ping' },
      websocket: { URL: services.websocket.url },
      smtp: { ...at(services.smtp.port), CA: authority.cert },
      imap: { ...at(services.imap.port), CA: authority.cert },
      pop3: { ...at(services.pop3.port), CA: authority.cert },
      grpc: at(services.grpc.port),
      docker: { 'Docker host': services.docker.dockerHost, Container: 'web' },
    });

    const sqlite = dialects.find((d) => d.name === 'sqlite')!;
    // One organization, and said outright: the fakes listen on 127.0.0.1.
    warden = await startSeededWarden(sqlite, YAML, { WARDEN_PROBE_PRIVATE_TARGETS: 'allow' });
    const { testContext } = await seeding();
    owner = await signedInUser(
      { ...testContext(warden.opened.store, { now: () => Date.now() }), organizationId: warden.organizationId },
      [{ organizationId: warden.organizationId, role: 'owner' }],
    );
    browser = await launchChromium();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await warden?.close();
    await new Promise((resolve) => tcp?.close(resolve));
    for (const close of closers) await close();
  });

  async function open(path: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'warden_session', value: owner.token, url: warden.url }]);
    const page = await context.newPage();
    // A step that cannot happen fails with its locator named, well before the test's own timeout.
    page.setDefaultTimeout(10_000);
    await page.goto(`${warden.url}/app${path}`);
    return { context, page };
  }

  async function seriousViolations(page: Page): Promise<string[]> {
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  /** An input by its label, required (" *") or not. */
  const field = (page: Page, label: string) =>
    page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));

  /** Fills the new-monitor form for a type (interval 10 s, the shortest) and leaves it unsent. */
  async function fillForm(page: Page, type: string, name: string): Promise<void> {
    await field(page, 'Type').selectOption(type);
    await field(page, 'Name').fill(name);
    for (const [label, value] of Object.entries(inputs[type] ?? {})) await field(page, label).fill(value);
    await field(page, 'Interval (s)').fill('10');
  }

  it('creates one monitor of every edge type through the form generated from the type schemas, testing checks first', async () => {
    const answer = await fetch(`${warden.url}/api/v1/monitor-types`, {
      headers: { authorization: `Bearer ${warden.readKey}` },
    });
    const { types } = (await answer.json()) as { types: { id: string; runsOn: string[] }[] };
    const edge = types.filter((t) => t.runsOn.includes('edge')).map((t) => t.id);
    // A type added without a fake here fails this test rather than going untested.
    expect(edge.filter((t) => !(t in inputs))).toEqual([]);
    const { context, page } = await open('/monitors/new');
    try {
      await page.getByRole('heading', { name: 'New monitor' }).waitFor();

      // The API's field path (body.config.port) puts its error under the Port field.
      await fillForm(page, 'tcp', 'Game port');
      await field(page, 'Port').fill('70000');
      await page.getByRole('button', { name: 'Test this check' }).click();
      await expect.poll(() => field(page, 'Port').getAttribute('aria-invalid')).toBe('true');
      // Announced with the field: its error is part of its description.
      const described = (await field(page, 'Port').getAttribute('aria-describedby')) ?? '';
      expect(
        await page
          .locator(
            described
              .split(' ')
              .map((id) => `[id="${id}"]`)
              .join(', '),
          )
          .allTextContents(),
      ).toContain('expected an integer from 1 to 65535');
      // The form, generated fields and an inline error included, passes axe.
      expect(await seriousViolations(page)).toEqual([]);
      await field(page, 'Port').fill(inputs.tcp!.Port!);
      await page.getByRole('button', { name: 'Test this check' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Passed in \d+ ms/ })
        .waitFor();

      const create = async (name: string) => {
        await page.getByRole('button', { name: 'Create monitor' }).click();
        await page.waitForURL(/\/app\/monitors\/mon_[0-9a-z]+$/);
        await page.getByRole('heading', { name }).waitFor();
      };
      await create('Game port');
      for (const type of edge.filter((t) => t !== 'tcp')) {
        await page.goto(`${warden.url}/app/monitors/new`);
        await fillForm(page, type, `E2E ${type}`);
        if (type === 'minecraft-java') {
          await page.getByRole('button', { name: 'Test this check' }).click();
          await page
            .getByRole('status')
            .filter({ hasText: /^Passed in \d+ ms.*12\/100 players/ })
            .waitFor();
        }
        if (type === 'tls') {
          // The pasted PEM (the CA field) is what makes the private chain trusted.
          await page.getByRole('button', { name: 'Test this check' }).click();
          await page
            .getByRole('status')
            .filter({ hasText: /^Passed in \d+ ms/ })
            .waitFor();
        }
        await create(`E2E ${type}`);
      }

      // The list renders the rows in view (a window virtualizer): a page tall enough holds every one of them.
      await page.setViewportSize({ width: 1280, height: 4000 });
      await page.goto(`${warden.url}/app/monitors`);
      const table = page.getByRole('table', { name: 'Monitors' });
      await expect.poll(() => table.getByRole('row').count()).toBe(edge.length + 2);
      for (const type of edge.filter((t) => t !== 'tcp'))
        expect(await table.getByRole('row', { name: new RegExp(`E2E ${type}\\b`) }).count()).toBe(1);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('shows a monitor: chart and players, recent checks, check now, state history through pause and resume, then deletes it', async () => {
    const monitor = (await warden.opened.store.monitors.list(warden.organizationId)).find(
      (m) => m.type === 'minecraft-java',
    )!;
    const { context, page } = await open(`/monitors/${monitor.id}`);
    try {
      await page.getByRole('heading', { name: 'E2E minecraft-java' }).waitFor();
      await page.getByRole('button', { name: 'Check now' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /Check now: Passed in \d+ ms/ })
        .waitFor();
      const checks = page.getByRole('table', { name: /Recent checks/ });
      await expect.poll(async () => (await checks.textContent()) ?? '').toContain('12/100 players');
      await page.getByRole('figure', { name: 'Response time over the last 24 hours' }).locator('canvas').waitFor();
      await page.getByRole('figure', { name: 'Players over the last 24 hours' }).waitFor();
      await page.getByText('7 d', { exact: true }).click();
      await page.getByRole('figure', { name: 'Response time over the last 7 days' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      const states = page.getByRole('table', { name: /State changes/ });
      await expect.poll(async () => (await states.textContent()) ?? '').toMatch(/Unknown\s*→?\s*to\s*Up|Unknown.*Up/);
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByRole('button', { name: 'Resume' }).waitFor();
      await expect
        .poll(async () => (await states.getByRole('row').nth(1).textContent()) ?? '')
        .toMatch(/Up.*Paused.*paused/);
      expect(await page.getByRole('button', { name: 'Check now' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByRole('button', { name: 'Pause' }).waitFor();
      await expect
        .poll(async () => (await states.getByRole('row').nth(1).textContent()) ?? '')
        .toMatch(/Paused.*Up.*resumed/);

      await page.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete E2E minecraft-java?' });
      await dialog.getByRole('button', { name: 'Delete monitor' }).click();
      await page.waitForURL(/\/app\/monitors$/);
      // Every type's monitor is listed now: a page tall enough shows all the rows the list renders in view.
      await page.setViewportSize({ width: 1280, height: 4000 });
      await page
        .getByRole('table', { name: 'Monitors' })
        .getByRole('row', { name: /E2E tcp|Game port/ })
        .first()
        .waitFor();
      expect(await page.getByRole('row', { name: /E2E minecraft-java/ }).count()).toBe(0);
      expect(await warden.opened.store.monitors.findById(monitor.id)).toBeUndefined();
    } finally {
      await context.close();
    }
  }, 30_000);

  it('edits a monitor keeping its secret as [redacted], and shows warden.yaml’s monitors read-only with their key', async () => {
    const rcon = (await warden.opened.store.monitors.list(warden.organizationId)).find((m) => m.type === 'rcon')!;
    const { context, page } = await open(`/monitors/${rcon.id}/edit`);
    try {
      await page.getByRole('heading', { name: 'Edit E2E rcon' }).waitFor();
      expect(await field(page, 'Password').inputValue()).toBe('[redacted]');
      expect(await page.getByText('Leave as [redacted] to keep the current one.').isVisible()).toBe(true);
      await field(page, 'Name').fill('Source RCON');
      const tags = page.getByRole('combobox', { name: 'Tags' });
      await tags.fill('games');
      await tags.press('Enter');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { name: 'Source RCON' }).waitFor();
      expect(await page.getByText('games', { exact: true }).isVisible()).toBe(true);
      const stored = await warden.opened.store.monitors.findById(rcon.id);
      expect(stored).toMatchObject({
        name: 'Source RCON',
        tags: ['games'],
        config: expect.objectContaining({ password: RCON_PASSWORD }),
      });

      const managed = warden.monitors.backups!;
      await page.goto(`${warden.url}/app/monitors/${managed.id}`);
      await page.getByRole('heading', { name: 'Nightly backups' }).waitFor();
      expect(await page.getByLabel('Managed by warden.yaml: change it in the file').isVisible()).toBe(true);
      expect(await page.getByText(/warden\.yaml manages this monitor \(key backups\)/).isVisible()).toBe(true);
      for (const name of ['Edit', 'Delete', 'Pause', 'New push token'])
        expect(await page.getByRole('button', { name }).count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 30_000);

  it('creates a push monitor and shows its token once, with snippets that work', async () => {
    const { context, page } = await open('/monitors/new');
    try {
      await field(page, 'Type').selectOption('heartbeat');
      await field(page, 'Name').fill('Cron job');
      expect(await page.getByRole('button', { name: 'Test this check' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Create monitor' }).click();
      await page.getByRole('heading', { name: 'Cron job created' }).waitFor();
      const url = await page.getByLabel('Push URL').inputValue();
      expect(url).toMatch(new RegExp(`^${warden.url}/api/push/wdp_`));
      expect(await page.getByText(/shown this once/).isVisible()).toBe(true);
      expect(await page.getByRole('tabpanel').textContent()).toContain(
        `curl -fsS "${url}?msg=backup%20ok&latency=812"`,
      );
      await page.getByRole('tab', { name: 'cron' }).click();
      expect(await page.getByRole('tabpanel').textContent()).toContain(
        `* * * * * curl -fsS -m 10 "${url}" > /dev/null`,
      );
      expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('wdp_');
      const ping = await fetch(url, { method: 'POST', body: JSON.stringify({ players: 3, maxPlayers: 10 }) });
      expect(ping.status).toBe(200);
      await page.getByRole('button', { name: 'Open the monitor' }).click();
      await page.getByRole('heading', { name: 'Cron job' }).waitFor();
      await expect
        .poll(async () => (await page.getByRole('table', { name: /Recent checks/ }).textContent()) ?? '')
        .toContain('Passed');
    } finally {
      await context.close();
    }
  }, 30_000);
});
