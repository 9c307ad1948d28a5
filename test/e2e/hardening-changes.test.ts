// Writes reach every process on the same database within 2 s: two real `warden serve` processes, one write through each path.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type ServerProcess, startServer } from '../cli-process.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

/** The documented bound (docs/api.md): a poll every second, then the reload. Polled for, with a margin for a loaded machine. */
const BOUND_MS = 2_000;
const DEADLINE = { timeout: BOUND_MS + 1_000, interval: 20 };

const config = (password?: string) => `
organization: { key: acme, name: Acme }
monitors:
  - { key: backup, name: Backup, type: heartbeat }
pages:
  - slug: handbook
    title: Handbook Status
    components: [{ name: Backup, monitor: backup }]
${password ? `    password: ${password}\n` : ''}`;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`two server processes on one ${dialect.name} database`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-changes-'));
    const configFile = join(dir, 'warden.yaml');
    let opened: OpenedStore;
    let env: Record<string, string>;
    let first: ServerProcess;
    let second: ServerProcess;
    let key = '';

    beforeAll(async () => {
      opened = await dialect.open({ migrate: false });
      await opened.store.close();
      env = { ...opened.env, WARDEN_DATA_DIR: opened.env.WARDEN_DATA_DIR ?? dir };
      writeFileSync(configFile, config());
      expect((await runCli(['config', 'apply', configFile], env)).code).toBe(0);
      key = (await runCli(['keys', 'create', '--name', 'writer', '--scope', 'write'], env)).stdout.trim();
      expect(key).toMatch(/^wdn_/);
      // Started one after the other: neither applies a config file or the demo, both serve what the database holds.
      first = await startServer([], env);
      second = await startServer([], env);
    }, scaled(60_000));

    afterAll(async () => {
      await Promise.all([first?.stop(), second?.stop()]);
      await opened?.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    const api = async (server: ServerProcess, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const status = async (server: ServerProcess, path: string) => (await fetch(`${server.url}${path}`)).status;
    const llms = async (server: ServerProcess) => (await fetch(`${server.url}/llms.txt`)).text();
    /** Polls `probe` on the other process until it shows the change; resolves with how long that took after the write. */
    const within = async (
      since: number,
      probe: () => Promise<unknown>,
      expected: unknown,
      interval = DEADLINE.interval,
      timeout = DEADLINE.timeout,
    ) => {
      await expect.poll(probe, { timeout, interval }).toEqual(expected);
      return performance.now() - since;
    };

    it('a page created and then protected through one process’s API is enforced by the other within 2 s', async () => {
      const created = await api(first, 'POST', '/api/v1/pages', { slug: 'survival', title: 'Survival Status' });
      expect(created.status).toBe(201);
      expect(await within(performance.now(), () => status(second, '/s/survival'), 200)).toBeLessThan(BOUND_MS + 1_000);
      const patched = await api(first, 'PATCH', '/api/v1/pages/survival', { password: 'correct-horse-battery' });
      expect(patched.status).toBe(200);
      const took = await within(performance.now(), () => status(second, '/s/survival'), 401);
      expect(took).toBeLessThan(BOUND_MS + 1_000);
      const withPassword = await fetch(`${second.url}/s/survival/status.json`, {
        headers: { authorization: 'Bearer correct-horse-battery' },
      });
      expect(withPassword.status).toBe(200);
    });

    it('an AI-policy change through one process takes the page out of the other’s llms.txt within 2 s', async () => {
      expect(await llms(second)).toContain('Handbook Status');
      // The file manages "handbook"; an API page is changed through the API.
      expect((await api(first, 'POST', '/api/v1/pages', { slug: 'public', title: 'Public Status' })).status).toBe(201);
      await within(performance.now(), async () => (await llms(second)).includes('Public Status'), true);
      expect((await api(first, 'PATCH', '/api/v1/pages/public', { aiPolicy: 'disallow' })).status).toBe(200);
      const took = await within(performance.now(), async () => (await llms(second)).includes('Public Status'), false);
      expect(took).toBeLessThan(BOUND_MS + 1_000);
    });

    it('`warden config apply` setting a password reaches both processes within 2 s', async () => {
      expect(await status(first, '/s/handbook')).toBe(200);
      expect(await status(second, '/s/handbook')).toBe(200);
      writeFileSync(configFile, config('handbook-secret-1'));
      const applied = await runCli(['config', 'apply', configFile], env);
      expect(applied.code, applied.stderr).toBe(0);
      const since = performance.now();
      await within(since, () => status(first, '/s/handbook'), 401);
      expect(await within(since, () => status(second, '/s/handbook'), 401)).toBeLessThan(BOUND_MS + 1_000);
      expect((await llms(second)).includes('Handbook Status')).toBe(false);
    });

    it('a push token replaced through one process stops working on the other within 2 s', async () => {
      const monitors = (await api(first, 'GET', '/api/v1/monitors')).body.monitors as { id: string; key: string }[];
      const backup = monitors.find((m) => m.key === 'backup') as { id: string };
      // Each replacement commits though the other process is storing heartbeats meanwhile (it once answered 503).
      const replace = async () => {
        const replaced = await api(first, 'POST', `/api/v1/monitors/${backup.id}/push-token`);
        expect(replaced.status).toBe(200);
        return replaced.body.pushToken as string;
      };
      const old = await replace();
      // Polled gently: every push counts against the token's rate (10 a second, burst 20).
      await within(performance.now(), () => status(second, `/api/push/${old}`), 200, 150);
      // The other process now remembers the old token; replacing it must make it forget.
      const fresh = await replace();
      // Each 200 is a durable write on the other process's one SQLite connection, which its change-counter read queues
      // behind: polled every 300 ms, the test's own pushes do not stretch what it measures on a busy disk.
      const took = await within(performance.now(), () => status(second, `/api/push/${old}`), 404, 300);
      expect(took).toBeLessThan(BOUND_MS + 1_000);
      expect(await status(second, `/api/push/${fresh}`)).toBe(200);
    });
  });
