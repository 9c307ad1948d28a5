// Issue 32: an organization a stranger registered first is not adopted by `warden config apply`. The stranger's
// organization stops the apply with an error naming `--adopt`, untouched, nothing of the operator's written into it;
// `--adopt KEY` takes it over on purpose (audit-logged, its members named); a server whose file names it does not
// start. Sign-ups and POST /api/v1/organizations cannot take `default`, `demo` or the key of the server's own file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { newId } from '../../src/domain/ids.js';
import { startWarden } from '../../src/main.js';
import { runCli } from '../cli-process.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';

/** The file the server applies at every start: its organization key is reserved. */
const SERVER_FILE = `
organization: { key: status, name: Operator }
monitors:
  - { key: site, name: Site, type: heartbeat }
`;
/** The operator's second file, applied with the CLI only: the server does not know its key. */
const ACME_FILE = `
organization: { key: acme, name: Acme (operator) }
monitors:
  - { key: operator-secret, name: Operator backend, type: tcp, config: { host: 10.1.2.3, port: 5432 } }
notifications:
  - { key: pager, name: Pager, type: webhook, config: { url: "http://127.0.0.1:9/pager", secret: "whsec_${Buffer.alloc(32, 7).toString('base64')}" } }
`;
const PASSWORD = 'correct horse battery staple';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`organizations config apply did not create, on ${dialect.name}`, () => {
    let s: SeededWarden;
    const work = mkdtempSync(join(tmpdir(), 'warden-adoption-'));
    const serverFile = join(work, 'warden.yaml');
    const acmeFile = join(work, 'acme.yaml');
    writeFileSync(serverFile, SERVER_FILE);
    writeFileSync(acmeFile, ACME_FILE);
    let stranger: string;

    const browse = (
      method: string,
      path: string,
      init: { session?: string; body?: unknown; organization?: string } = {},
    ) =>
      fetch(`${s.url}${path}`, {
        method,
        headers: {
          origin: s.url,
          'content-type': 'application/json',
          ...(init.session ? { cookie: `warden_session=${init.session}` } : {}),
          ...(init.organization ? { 'x-warden-organization': init.organization } : {}),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    const signUp = async (email: string) => {
      const res = await browse('POST', '/api/v1/auth/signup', {
        body: { email, name: 'Stranger', password: PASSWORD },
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const session = /warden_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] as string;
      return {
        session,
        organizations: ((await res.json()) as { organizations: { key: string }[] }).organizations.map((o) => o.key),
      };
    };
    const acme = async () => s.opened.store.organizations.findByKey('acme');
    const monitorKeys = async (organizationId: string) =>
      (await s.opened.store.monitors.list(organizationId)).map((m) => m.key).sort();

    beforeAll(async () => {
      s = await startSeededWarden(dialect, SERVER_FILE, { WARDEN_CONFIG: serverFile, WARDEN_SIGNUP: 'open' });
      // A stranger signs up, and registers the key the operator's second file names, before the operator applies it.
      const signed = await signUp('stranger@example.net');
      stranger = signed.session;
      const created = await browse('POST', '/api/v1/organizations', {
        session: stranger,
        body: { key: 'acme', name: 'Acme (stranger)' },
      });
      expect(created.status).toBe(201);
      const monitor = await browse('POST', '/api/v1/monitors', {
        session: stranger,
        organization: 'acme',
        body: { key: 'stranger-site', name: 'Stranger site', type: 'heartbeat' },
      });
      expect(monitor.status, await monitor.clone().text()).toBe(201);
    });

    afterAll(async () => {
      await s?.close();
      rmSync(work, { recursive: true, force: true });
    });

    it('refuses the keys default, demo and the server file’s to POST /api/v1/organizations, naming the field', async () => {
      for (const key of ['default', 'demo', 'status']) {
        const res = await browse('POST', '/api/v1/organizations', {
          session: stranger,
          body: { key, name: 'Mine now' },
        });
        expect(res.status).toBe(400);
        const problem = await res.json();
        expect(problem.errors).toEqual([{ path: 'body.key', message: expect.stringContaining('reserved') }]);
      }
      expect(await s.opened.store.organizations.findByKey('default')).toBeUndefined();
      expect((await s.opened.store.organizations.findByKey('status'))?.managedBy).toBe('config');
    });

    it('gives an open sign-up another key than a reserved one', async () => {
      expect((await signUp('default@example.net')).organizations).toEqual(['default-2']);
      expect((await signUp('demo@example.net')).organizations).toEqual(['demo-2']);
      expect((await signUp('status@example.net')).organizations).toEqual(['status-2']);
    });

    it('stops config apply at the stranger’s organization, with an error naming --adopt, writing nothing into it', async () => {
      const applied = await runCli(['config', 'apply', acmeFile], s.opened.env);
      expect(applied.code).not.toBe(0);
      expect(applied.stderr).toContain('the organization "acme" exists and no config file made it');
      expect(applied.stderr).toContain('warden config apply --adopt acme');
      const organization = await acme();
      expect(organization).toMatchObject({ name: 'Acme (stranger)', managedBy: 'api' });
      expect(await monitorKeys(organization?.id as string)).toEqual(['stranger-site']);
      expect(await s.opened.store.channels.list(organization?.id as string)).toEqual([]);
      // What the stranger reads: still only their own.
      const listed = await (
        await browse('GET', '/api/v1/monitors', { session: stranger, organization: 'acme' })
      ).json();
      expect(listed.monitors.map((m: { key: string }) => m.key)).toEqual(['stranger-site']);
    });

    it('does not start a server whose file names the stranger’s organization', async () => {
      const settings = readSettings({
        ...s.opened.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        WARDEN_CONFIG: acmeFile,
      });
      await expect(startWarden({ settings })).rejects.toThrow(/--adopt acme/);
      expect(await monitorKeys((await acme())?.id as string)).toEqual(['stranger-site']);
    });

    it('refuses a stranger’s `default` to a file without a key, the same way', async () => {
      // A database from before this fix, where a sign-up could still take `default`.
      const userId = (await s.opened.store.users.findByEmail('stranger@example.net'))?.id as string;
      const { organization } = await s.opened.store.organizations.upsert(
        { id: newId('org'), key: 'default', name: 'Squatted' },
        Date.now(),
      );
      await s.opened.store.memberships.put({
        organizationId: organization.id,
        userId,
        role: 'owner',
        createdAt: Date.now(),
      });
      const keyless = join(work, 'keyless.yaml');
      writeFileSync(
        keyless,
        'organization: { name: Operator }\nmonitors:\n  - { key: db, name: Database, type: heartbeat }\n',
      );
      const applied = await runCli(['config', 'apply', keyless], s.opened.env);
      expect(applied.code).not.toBe(0);
      expect(applied.stderr).toContain('warden config apply --adopt default');
      expect(await monitorKeys(organization.id)).toEqual([]);
    });

    it('adopts it on purpose with --adopt KEY: the file manages it, the audit log says so, its members are named', async () => {
      const wrong = await runCli(['config', 'apply', '--adopt', 'other', acmeFile], s.opened.env);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toContain('--adopt acme');
      expect((await acme())?.managedBy).toBe('api');

      const adopted = await runCli(['config', 'apply', '--adopt', 'acme', acmeFile], s.opened.env);
      expect(adopted.code, adopted.stderr).toBe(0);
      expect(adopted.stderr).toContain('adopted organization "acme"');
      expect(adopted.stderr).toContain('stranger@example.net (owner)');
      const organization = await acme();
      expect(organization).toMatchObject({ name: 'Acme (operator)', managedBy: 'config' });
      // The stranger's monitor was made through the API: the file leaves it alone.
      expect(await monitorKeys(organization?.id as string)).toEqual(['operator-secret', 'stranger-site']);
      const audit = await (
        await browse('GET', '/api/v1/audit?objectType=organization', { session: stranger, organization: 'acme' })
      ).json();
      expect(audit.entries).toContainEqual(
        expect.objectContaining({
          action: 'organization.adopt',
          actor: { kind: 'system', id: 'config', name: 'config' },
          detail: { members: 1, activeApiKeys: 0 },
        }),
      );
      // From now on the file's: applied again without --adopt, and renamed only there.
      const again = await runCli(['config', 'apply', acmeFile], s.opened.env);
      expect(again.code, again.stderr).toBe(0);
      expect(
        (
          await browse('PATCH', '/api/v1/organization', {
            session: stranger,
            organization: 'acme',
            body: { name: 'Taken back' },
          })
        ).status,
      ).toBe(409);
    });

    it('loads the built-in demo into no `demo` someone registered (a database from before this fix)', async () => {
      const opened = await dialect.open();
      try {
        const { organization } = await opened.store.organizations.upsert(
          { id: newId('org'), key: 'demo', name: 'Squatted demo' },
          Date.now(),
        );
        const warden = await startWarden({
          settings: readSettings({ ...opened.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }),
        });
        try {
          expect(warden.syncReport).toBeNull();
          expect(await opened.store.monitors.list(organization.id)).toEqual([]);
          expect(await opened.store.organizations.findByKey('demo')).toMatchObject({
            name: 'Squatted demo',
            managedBy: 'api',
          });
        } finally {
          await warden.close();
        }
      } finally {
        await opened.cleanup();
      }
    });
  });
}
