// First run of a real server (startWarden): with no account it logs a setup code once — the only place it ever
// appears — while the demo page works for anyone; a restart replaces the code; once an owner exists, nothing is logged.
// It records its address for the command line's links.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { runCli } from '../cli-process.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const SETUP_CODE = /open (https?:\/\/[^\s"]+)\/app and enter the setup code ([2-9A-Z]{4}-[2-9A-Z]{4})/g;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`first run on ${dialect.name}`, () => {
    let opened: OpenedStore | undefined;
    let running: Warden | undefined;
    afterEach(async () => {
      await running?.close();
      running = undefined;
      await opened?.cleanup();
      opened = undefined;
    });

    /** Starts a server on the test's database; returns it and everything it logged while starting. */
    async function start(): Promise<{ warden: Warden; log: string; base: string }> {
      const lines: string[] = [];
      const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
      const settings = readSettings({ ...opened?.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
      running = await startWarden({ settings, logger });
      return { warden: running, log: lines.join(''), base: running.url.replace('localhost', '127.0.0.1') };
    }
    const setup = (base: string, code: string) =>
      fetch(`${base}/api/v1/auth/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({
          code,
          email: 'owner@example.com',
          name: 'Owner',
          password: 'correct horse battery staple',
        }),
      });

    it('logs the setup code once without accounts, serves the demo to anyone, and logs nothing once an owner exists', {
      timeout: scaled(60_000),
    }, async () => {
      opened = await dialect.open({ migrate: false });
      const first = await start();
      // The log names every page's address, once.
      const pageLines = first.log
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg: string; url?: string })
        .filter((e) => e.msg.startsWith('status page'));
      expect(pageLines.map((e) => e.url)).toEqual([`${first.warden.url}/s/demo`]);
      const codes = [...first.log.matchAll(SETUP_CODE)];
      expect(codes).toHaveLength(1);
      expect(codes[0]?.[1]).toBe(first.warden.url);
      const code = codes[0]?.[2] as string;
      // The code is in that line only.
      expect(first.log.split(code)).toHaveLength(2);
      // The address the command line's links name (docs/cli.md).
      expect(await first.warden.store.serverSecrets.get('server-address')).toBe(first.warden.url);
      // Nobody needs an account to read the demo page; / lists it and leads to the dashboard's setup (not a JSON 404,
      // nor a redirect to the demo that would hide the way in).
      expect((await fetch(`${first.base}/s/demo`)).status).toBe(200);
      const home = await fetch(`${first.base}/`, { redirect: 'manual' });
      expect(home.status).toBe(200);
      const homeHtml = await home.text();
      expect(homeHtml).toContain('href="/s/demo"');
      expect(homeHtml).toContain('<a href="/app/">Set up the dashboard</a>');
      expect((await fetch(`${first.base}/api/v1/status/demo`)).status).toBe(200);
      expect(await (await fetch(`${first.base}/api/v1/auth/config`)).json()).toMatchObject({ setupRequired: true });
      await first.warden.close();
      running = undefined;

      // Restarted before anyone used it: a new code, and the old one stops working; the demo's heartbeat pinger
      // starts again with the server (its monitor takes the new run's pings).
      const second = await start();
      const demoOrg = (await second.warden.store.organizations.findByKey('demo'))?.id as string;
      const beatAfterRestart = Date.now();
      await vi.waitFor(
        async () => {
          const heartbeat = (await second.warden.store.monitors.list(demoOrg)).find((m) => m.key === 'demo-heartbeat');
          expect(heartbeat?.lastCheckAt ?? 0).toBeGreaterThan(beatAfterRestart);
          expect(heartbeat?.state).toBe('up');
        },
        { timeout: 8000, interval: 200 },
      );
      const renewed = [...second.log.matchAll(SETUP_CODE)];
      expect(renewed).toHaveLength(1);
      expect((await setup(second.base, code)).status).toBe(400);
      const created = await setup(second.base, renewed[0]?.[2] as string);
      expect(created.status).toBe(201);
      // The demo stays nobody's; the owner gets an organization of their own.
      expect((await created.json()).organizations).toEqual([expect.objectContaining({ key: 'main', role: 'owner' })]);
      await second.warden.close();
      running = undefined;

      const third = await start();
      expect(third.log).not.toMatch(SETUP_CODE);
      expect(third.log).not.toContain('setup code');
      expect(await (await fetch(`${third.base}/api/v1/auth/config`)).json()).toMatchObject({ setupRequired: false });
      // An organization of the operator's exists: the demo steps aside — its monitors paused, not deleted, and its
      // page gone from /, llms.txt and MCP — and says how to delete it.
      expect(third.log).toContain('`warden demo remove` deletes it');
      const paused = await third.warden.store.monitors.list(demoOrg);
      expect(paused.map((m) => `${m.key}:${m.enabled}`).sort()).toEqual([
        'demo-heartbeat:false',
        'demo-http:false',
        'demo-tcp:false',
      ]);
      expect((await fetch(`${third.base}/s/demo`)).status).toBe(404);
      expect((await fetch(`${third.base}/api/v1/status/demo`)).status).toBe(404);
      const homeAfter = await fetch(`${third.base}/`, { redirect: 'manual' });
      expect(homeAfter.headers.get('location') ?? '').not.toContain('demo');
      expect(await homeAfter.text()).not.toContain('Warden demo');
      expect(await (await fetch(`${third.base}/llms.txt`)).text()).not.toContain('/s/demo');
      // Commands never need --org because of it: `warden monitors list` acts on the operator's organization.
      const list = await runCli(['monitors', 'list', '--json'], opened?.env ?? {});
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout)).toEqual([]);
      // `warden demo remove` deletes it, beside the running server.
      const removed = await runCli(['demo', 'remove'], opened?.env ?? {});
      expect([removed.code, removed.stderr]).toEqual([0, 'removed the built-in demo\n']);
      expect(await third.warden.store.organizations.findByKey('demo')).toBeUndefined();
      expect((await runCli(['demo', 'remove'], opened?.env ?? {})).stderr).toContain('the built-in demo is not there');
      await third.warden.close();
      running = undefined;
      // And it stays away: the next start loads no demo beside the operator's organization.
      const fourth = await start();
      expect(await fourth.warden.store.organizations.findByKey('demo')).toBeUndefined();
    });
  });
}
