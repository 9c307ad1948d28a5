import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/domain/tokens.js';
import type { Store } from '../../src/store/index.js';
import { LATEST_MIGRATION } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import { runCli, startServer } from '../cli-process.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const CONFIG = `
organization: { key: acme, name: Acme }
relays: [{ key: lab, name: Home lab }]
monitors:
  - { key: web, name: Web, type: http, config: { url: "http://127.0.0.1:1/" } }
  - { key: console, name: Console, type: rcon, runOn: relay, relay: lab, config: { host: 10.0.0.2, password: "\${RCON_PASSWORD}" } }
  - { key: backup, name: Backup, type: heartbeat }
pages:
  - { slug: acme, title: Acme, components: [{ name: Web, monitor: web }] }
`;

const work = mkdtempSync(join(tmpdir(), 'warden-cli-'));
const configFile = join(work, 'warden.yaml');
writeFileSync(configFile, CONFIG);
const badFile = join(work, 'bad.yaml');
writeFileSync(
  badFile,
  'organization: { name: A }\nmonitors:\n  - { key: x, name: X, type: tcp, config: { host: h, port: 0 } }\n',
);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('warden CLI basics', () => {
  it('prints help listing every command', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const command of ['serve', 'migrate', 'config', 'keys', 'relays', 'monitors'])
      expect(stdout).toContain(command);
  });

  it('config check accepts a valid file and lists every problem of a bad one', async () => {
    const ok = await runCli(['config', 'check', configFile], { RCON_PASSWORD: 'pw' });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('is valid: 1 relay, 3 monitors, 1 page, 1 component');
    const bad = await runCli(['config', 'check', badFile]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('monitors[0].config.port: expected an integer from 1 to 65535');
    const missingEnv = await runCli(['config', 'check', configFile], { RCON_PASSWORD: '' });
    expect(missingEnv.code).toBe(1);
    expect(missingEnv.stderr).toContain('monitors[1].config.password: environment variable RCON_PASSWORD is not set');
  });

  it('refuses a wrong variable in every command that reads it, saying what it expected and what it got', async () => {
    const check = await runCli(['config', 'check', configFile], { RCON_PASSWORD: 'pw', PORT: 'abc' });
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('PORT: expected a port number from 0 to 65535, got "abc"');
    expect(check.stdout).toBe('');
    const sync = await runCli(['monitors', 'list'], {
      WARDEN_DATA_DIR: join(work, 'none'),
      WARDEN_SQLITE_SYNC: 'bogus',
      LOG_LEVEL: 'loud',
    });
    expect(sync.code).toBe(1);
    expect(sync.stderr).toContain('WARDEN_SQLITE_SYNC: expected full or normal, got "bogus"');
    expect(sync.stderr).toContain('LOG_LEVEL: expected fatal, error, warn, info, debug, trace or silent, got "loud"');
    // The relay agent reads its own: each named as it was given, the token never repeated.
    const relay = await runCli(['relay', '--concurrency', 'many'], {
      WARDEN_URL: 'warden.example',
      WARDEN_RELAY_TOKEN: 'wrong-token-secret',
      LOG_LEVEL: 'loud',
    });
    expect(relay.code).toBe(1);
    expect(relay.stderr).toContain(
      'WARDEN_URL: expected the http(s) address of the Warden server, e.g. https://status.example.com, got "warden.example"',
    );
    expect(relay.stderr).toMatch(
      /WARDEN_RELAY_TOKEN: expected a relay token starting with wdr_ .*, got 18 characters \(not repeated: a secret\)/,
    );
    expect(relay.stderr).toContain('--concurrency: expected a whole number from 1 to 10000, got "many"');
    expect(relay.stderr).toContain('LOG_LEVEL: expected fatal, error, warn, info, debug, trace or silent, got "loud"');
    expect(relay.stderr).not.toContain('wrong-token-secret');
  });

  it('config schema prints a JSON Schema', async () => {
    const { code, stdout } = await runCli(['config', 'schema']);
    expect(code).toBe(0);
    const schema = JSON.parse(stdout);
    expect(schema.$schema).toContain('json-schema.org');
    expect(schema.properties.monitors).toBeDefined();
  });

  it('names an unknown command and suggests the nearest one', async () => {
    const { code, stderr } = await runCli(['srve']);
    expect(code).toBe(1);
    expect(stderr).toContain("error: unknown command 'srve'\n(Did you mean serve?)");
    expect(stderr).not.toContain('too many arguments');
  });

  it('serve refuses an invalid PORT, naming it, before creating anything', async () => {
    const dataDir = join(work, 'port-abc');
    const { code, stderr } = await runCli(['serve'], { WARDEN_DATA_DIR: dataDir, PORT: 'abc' });
    expect(code).toBe(1);
    expect(stderr).toContain('PORT: expected a port number from 0 to 65535, got "abc"');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('a command run against a data dir with no database refuses, leaving no file behind', async () => {
    const dataDir = join(work, 'mistyped-data-dir');
    const { code, stderr } = await runCli(['keys', 'list'], { WARDEN_DATA_DIR: dataDir, DATABASE_URL: '' });
    expect(code).toBe(1);
    expect(stderr).toContain(
      `error: no Warden database at ${join(dataDir, 'warden.db')} (WARDEN_DATA_DIR: ${dataDir}); run \`warden serve\` or \`warden migrate\` first`,
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('serve refuses an invalid config file before listening, listing the problems', async () => {
    const dataDir = join(work, 'bad-serve');
    const result = await runCli(['serve', '--config', badFile], { WARDEN_DATA_DIR: dataDir, PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('monitors[0].config.port: expected an integer from 1 to 65535');
  });
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`warden CLI on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let env: Record<string, string>;
    beforeAll(async () => {
      opened = await dialect.open({ migrate: false });
      await opened.store.close();
      env = { ...opened.env, RCON_PASSWORD: 'rcon-secret-value' };
    });
    afterAll(async () => {
      await opened.cleanup();
    });

    /** A second connection to the database the CLI writes, as the server would open it; `read` gets it closed again. */
    const read = async <T>(what: (store: Store) => Promise<T>): Promise<T> => {
      const store = await openStore({
        dataDir: env.WARDEN_DATA_DIR ?? '.',
        databaseUrl: env.DATABASE_URL,
        databaseSchema: env.DATABASE_SCHEMA,
      });
      try {
        return await what(store);
      } finally {
        await store.close();
      }
    };

    it('migrate creates the schema once', async () => {
      const first = await runCli(['migrate'], env);
      expect(first.code).toBe(0);
      expect(first.stderr).toContain('applied 0001-initial');
      const second = await runCli(['migrate'], env);
      expect(second.stderr).toContain(`is up to date (${LATEST_MIGRATION})`);
    });

    it('commands that need an organization explain how to get one', async () => {
      const { code, stderr } = await runCli(['keys', 'list'], env);
      expect(code).toBe(1);
      expect(stderr).toContain('start the server or run `warden config apply` first');
    });

    it('config apply loads the file', async () => {
      const { code, stderr } = await runCli(['config', 'apply', configFile], env);
      expect(code).toBe(0);
      expect(stderr).toContain('applied');
      expect(stderr).toContain('0 deleted');
    });

    it('keys create prints only the key on stdout and stores only its hash', async () => {
      const created = await runCli(['keys', 'create', '--name', 'deploy bot', '--scope', 'write'], env);
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^wdn_[A-Za-z0-9_-]{32}\n$/);
      const key = created.stdout.trim();
      expect(created.stderr).not.toContain(key);
      const { rows, stored } = await read(async (store) => {
        const organization = await store.organizations.findByKey('acme');
        return {
          rows: await store.apiKeys.list(organization?.id as string),
          stored: await store.apiKeys.findActiveByHash(hashSecret(key)),
        };
      });
      expect(rows).toHaveLength(1);
      expect(stored).toMatchObject({
        id: rows[0]?.id,
        hash: hashSecret(key),
        scope: 'write',
        name: 'deploy bot',
        prefix: key.slice(0, 12),
      });
      expect(JSON.stringify([rows, stored])).not.toContain(key);

      const list = await runCli(['keys', 'list'], env);
      expect(list.stdout).toContain(`${key.slice(0, 12)}…`);
      expect(list.stdout).not.toContain(key);
      expect(list.stdout).toContain('active');

      const id = rows[0]?.id as string;
      expect((await runCli(['keys', 'revoke', id], env)).code).toBe(0);
      expect((await runCli(['keys', 'list'], env)).stdout).toContain('revoked');
      const again = await runCli(['keys', 'revoke', id], env);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('was not found');
    });

    it('keys create rejects an unknown scope', async () => {
      const { code, stderr } = await runCli(['keys', 'create', '--name', 'x', '--scope', 'admin'], env);
      expect(code).not.toBe(0);
      expect(stderr).toContain('Allowed choices are read, write');
    });

    it('relays token issues a new token each time, revoking the previous one', async () => {
      const first = await runCli(['relays', 'token', 'lab'], env);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^wdr_[A-Za-z0-9_-]{32}\n$/);
      const second = await runCli(['relays', 'token', 'lab'], env);
      const [current, previous] = await read((store) =>
        Promise.all([
          store.relays.findByTokenHash(hashSecret(second.stdout.trim())),
          store.relays.findByTokenHash(hashSecret(first.stdout.trim())),
        ]),
      );
      expect(current?.key).toBe('lab');
      expect(previous).toBeUndefined();
      const list = await runCli(['relays', 'list'], env);
      expect(list.stdout).toMatch(/lab\s+Home lab\s+wdr_\S+…\s+1/);
      expect((await runCli(['relays', 'token', 'nope'], env)).code).toBe(1);
    });

    it('monitors list shows state, and --json shows each relay key but never a secret', async () => {
      const table = await runCli(['monitors', 'list'], env);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/console\s+Console\s+rcon\s+relay lab\s+60s\s+unknown/);
      const json = await runCli(['monitors', 'list', '--json'], env);
      const monitors = JSON.parse(json.stdout) as {
        key: string;
        relayKey: string | null;
        config: Record<string, unknown>;
      }[];
      expect(monitors.map((m) => m.key)).toEqual(['backup', 'console', 'web']);
      expect(monitors.map((m) => m.relayKey)).toEqual([null, 'lab', null]);
      expect(monitors.find((m) => m.key === 'console')?.config.password).toBe('[redacted]');
      expect(json.stdout).not.toContain('rcon-secret-value');
    });

    it('monitors token issues a push token for a heartbeat monitor only, refusing others as a conflict', async () => {
      const ok = await runCli(['monitors', 'token', 'backup'], env);
      expect(ok.stdout).toMatch(/^wdp_[A-Za-z0-9_-]{32}\n$/);
      const wrong = await runCli(['monitors', 'token', 'web'], env);
      expect(wrong.code).toBe(1);
      expect(wrong.stdout).toBe('');
      expect(wrong.stderr).toContain('monitor "web" runs on edge; only push monitors have push tokens');
    });

    it('serve answers health checks, works beside the CLI, and shuts down gracefully on SIGTERM', async () => {
      const server = await startServer(['--config', configFile], env);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${server.url}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ready', database: dialect.name });
      const missing = await fetch(`${server.url}/nowhere`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('application/problem+json');
      expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-z]{8}-[0-9a-z]+$/);

      const created = await runCli(['keys', 'create', '--name', 'while running'], env);
      expect(created.code).toBe(0);

      const { code, ms } = await server.stop('SIGTERM');
      expect(code).toBe(0);
      expect(ms).toBeLessThan(10_000);
      expect(server.log()).toContain('shutdown complete');
      expect(server.log()).not.toContain('rcon-secret-value');
    });

    it('serve without a config file serves what config apply stored and loads no demo over it', {
      timeout: scaled(60_000),
    }, async () => {
      const before = await runCli(['monitors', 'list', '--json'], env);
      const applied = (JSON.parse(before.stdout) as { key: string }[]).map((m) => m.key).sort();
      expect(applied.length).toBeGreaterThan(0);
      const server = await startServer([], env);
      const demo = await fetch(`${server.url}/api/v1/status/demo`);
      expect(demo.status).toBe(404);
      await server.stop('SIGTERM');
      expect(server.log()).toContain('no config file: serving the organizations the database holds');
      const after = await runCli(['monitors', 'list', '--json'], env);
      expect((JSON.parse(after.stdout) as { key: string }[]).map((m) => m.key).sort()).toEqual(applied);
    });
  });
}
