// `warden users create|reset-password|set-email|list` as a real process on a real database: one-time password links on stdout
// (and only there), passwords from stdin, owners of every organization but the demo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/domain/passwords.js';
import { resetPassword } from '../../src/services/accounts/password-reset.js';
import type { Store } from '../../src/store/index.js';
import { openStore } from '../../src/store/open-store.js';
import { runCli } from '../cli-process.js';
import { testContext } from '../seed.js';
import { dialects, type OpenedStore } from '../store-dialects.js';

const RESET_LINK = /^http:\/\/warden\.example\/app\/reset\?token=(wdu_[\w-]+)\n$/;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`warden users on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let env: Record<string, string>;
    beforeAll(async () => {
      opened = await dialect.open();
      await opened.store.organizations.upsert({ id: 'org_acme', key: 'acme', name: 'Acme' }, Date.now());
      await opened.store.organizations.upsert({ id: 'org_demo', key: 'demo', name: 'Warden demo' }, Date.now());
      await opened.store.close();
      env = { ...opened.env, WARDEN_BASE_URL: 'http://warden.example' };
    });
    afterAll(async () => {
      await opened?.cleanup();
    });
    /** A connection to the database the CLI writes, closed again after `what`. */
    const read = async <T>(what: (store: Store) => Promise<T>): Promise<T> => {
      const store = await openStore({
        dataDir: env.WARDEN_DATA_DIR ?? '.',
        databaseUrl: env.DATABASE_URL || undefined,
        databaseSchema: env.DATABASE_SCHEMA,
      });
      try {
        return await what(store);
      } finally {
        await store.close();
      }
    };

    it('creates an owner of every organization but the demo and prints a one-time password link alone on stdout', async () => {
      const result = await runCli(
        ['users', 'create', '--email', 'Olive@Example.com', '--name', 'Olive', '--role', 'owner'],
        env,
      );
      expect(result.code, result.stderr).toBe(0);
      const token = RESET_LINK.exec(result.stdout)?.[1] as string;
      expect(token).toBeDefined();
      expect(result.stderr).toContain('created user olive@example.com');
      expect(result.stderr).toContain('owner of acme');
      expect(result.stderr).not.toContain(token);
      await read(async (store) => {
        const user = await store.users.findByEmail('olive@example.com');
        expect(user).toMatchObject({ name: 'Olive', hasPassword: false });
        expect(
          (await store.memberships.listByUser(user?.id ?? '')).map((m) => `${m.organization.key}:${m.role}`),
        ).toEqual(['acme:owner']);
        const entries = await store.audit.list({ organizationId: 'org_acme', limit: 50 });
        expect(entries.filter((e) => e.action === 'member.add')).toEqual([
          expect.objectContaining({
            actorKind: 'system',
            actorName: 'cli',
            objectLabel: 'olive@example.com',
            detail: { role: 'owner', via: 'cli' },
          }),
        ]);
        // The link sets the password, once.
        await resetPassword(testContext(store, { now: () => Date.now() }), {
          token,
          password: 'correct horse battery staple',
        });
        expect(
          await verifyPassword(
            'correct horse battery staple',
            (await store.users.findByEmail('olive@example.com'))?.passwordHash ?? '',
          ),
        ).toBe(true);
      });
    });

    it('takes the password from stdin, printing no link', async () => {
      const result = await runCli(
        ['users', 'create', '--email', 'ed@example.com', '--role', 'editor', '--password-stdin'],
        env,
        20_000,
        'a long enough password\n',
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('editor of acme');
      await read(async (store) => {
        const user = await store.users.findByEmail('ed@example.com');
        expect(user?.name).toBe('ed');
        expect(await verifyPassword('a long enough password', user?.passwordHash ?? '')).toBe(true);
      });
    });

    it('refuses a taken email, a short password, an unknown organization and an unknown role', async () => {
      const taken = await runCli(['users', 'create', '--email', 'ED@example.com', '--role', 'viewer'], env);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('An account with this email address exists');
      const short = await runCli(
        ['users', 'create', '--email', 'sam@example.com', '--role', 'viewer', '--password-stdin'],
        env,
        20_000,
        'short\n',
      );
      expect(short.code).toBe(1);
      expect(short.stderr).toContain('password: expected at least 10 characters');
      const unknown = await runCli(
        ['users', 'create', '--email', 'sam@example.com', '--role', 'viewer', '--org', 'nope'],
        env,
      );
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('organization "nope" was not found');
      expect((await runCli(['users', 'create', '--email', 'sam@example.com', '--role', 'boss'], env)).code).not.toBe(0);
      expect(await read((store) => store.users.findByEmail('sam@example.com'))).toBeUndefined();
    });

    it('off a terminal, names the missing flag of `users create --role owner`', async () => {
      const result = await runCli(['users', 'create', '--role', 'owner'], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'error: missing --email <email> (their email address, how they sign in); for example: warden users create --email',
      );
    });

    it('names in links the address the server recorded, else WARDEN_BASE_URL first, else a port said to be a guess', async () => {
      const bare = { ...opened.env, PORT: '18500' };
      // No server has run on this database: a guess, said to be one.
      const guessed = await runCli(['users', 'reset-password', '--email', 'ed@example.com'], bare);
      expect(guessed.code, guessed.stderr).toBe(0);
      expect(guessed.stdout).toMatch(/^http:\/\/localhost:18500\/app\/reset\?token=wdu_/);
      expect(guessed.stderr).toContain('http://localhost:18500 in these links is a guess');
      // A server started on port 18400 recorded its address (src/main.ts): links name it, whatever PORT the CLI has.
      await read((store) => store.serverSecrets.put('server-address', 'http://localhost:18400', Date.now()));
      const recorded = await runCli(['users', 'reset-password', '--email', 'ed@example.com'], bare);
      expect(recorded.stdout).toMatch(/^http:\/\/localhost:18400\/app\/reset\?token=wdu_/);
      expect(recorded.stderr).not.toContain('guess');
      // WARDEN_BASE_URL wins over both.
      expect((await runCli(['users', 'reset-password', '--email', 'ed@example.com'], env)).stdout).toMatch(RESET_LINK);
    });

    it('prints a password-reset link for a user, and refuses an unknown email', async () => {
      const result = await runCli(['users', 'reset-password', '--email', 'ed@example.com'], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(RESET_LINK);
      const unknown = await runCli(['users', 'reset-password', '--email', 'nobody@example.com'], env);
      expect(unknown.code).toBe(1);
      expect(unknown.stdout).toBe('');
    });

    it('sets a user’s email at once, as confirmed, and refuses an address another account has', async () => {
      expect((await runCli(['users', 'create', '--email', 'una@example.com', '--role', 'viewer'], env)).code).toBe(0);
      await read((store) =>
        store.users
          .findByEmail('una@example.com')
          .then((u) => store.users.update(u?.id ?? '', { emailVerifiedAt: null }, Date.now())),
      );
      const taken = await runCli(
        ['users', 'set-email', '--email', 'una@example.com', '--new-email', 'ED@example.com'],
        env,
      );
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('ed@example.com is the address of another account');
      const result = await runCli(
        ['users', 'set-email', '--email', 'UNA@example.com', '--new-email', 'Una.New@Example.com'],
        env,
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('now signs in as una.new@example.com');
      await read(async (store) => {
        expect(await store.users.findByEmail('una@example.com')).toBeUndefined();
        expect((await store.users.findByEmail('una.new@example.com'))?.emailVerifiedAt).not.toBeNull();
      });
      expect(
        (await runCli(['users', 'set-email', '--email', 'nobody@example.com', '--new-email', 'x@example.com'], env))
          .code,
      ).toBe(1);
    });

    it('lists users with their organizations and roles, by email', async () => {
      const result = await runCli(['users', 'list'], env);
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^ID\s+EMAIL\s+CONFIRMED\s+NAME\s+PASSWORD\s+TOTP\s+ORGANIZATIONS\s+CREATED$/);
      expect(lines.slice(1).map((line) => line.split(/\s{2,}/).slice(1, 7))).toEqual([
        ['ed@example.com', 'yes', 'ed', 'yes', 'off', 'acme:editor'],
        ['olive@example.com', 'yes', 'Olive', 'yes', 'off', 'acme:owner'],
        ['una.new@example.com', 'yes', 'una', 'no', 'off', 'acme:viewer'],
      ]);
    });
  });
}
