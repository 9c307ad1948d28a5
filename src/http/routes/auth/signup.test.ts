// Signing up as WARDEN_SIGNUP allows, and invitation links from the invited side: the public preview, accepting one
// signed in, and every way a link can no longer be used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { browse, insertInvitation, sessionSet } from '../../../../test/auth-browser.js';
import { dialects } from '../../../../test/store-dialects.js';
import type { AccountSettings } from '../../../config/settings.js';
import { generateSecret } from '../../../domain/tokens.js';

const PROBLEMS = 'https://warden.dev/problems/';
const person = (email: string) => ({ email, name: 'Nia New', password: 'correct horse battery staple' });

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`signing up on ${dialect.name}`, () => {
    let h: ApiHarness;
    const accounts: AccountSettings = { signup: 'invite', oidc: undefined };
    beforeAll(async () => {
      h = await openApiHarness(dialect, { accounts });
    });
    afterAll(async () => {
      await h?.close();
    });
    const signup = (body: Record<string, unknown>, origin?: string) => browse(h, 'POST', '/api/v1/auth/signup', { body, ...(origin ? { origin } : {}) });

    it('refuses every sign-up while closed (403), invitation or not', async () => {
      accounts.signup = 'closed';
      const { token } = await insertInvitation(h, h.a.id);
      for (const body of [person('closed@example.com'), { ...person('closed@example.com'), invitation: token }]) {
        const res = await signup(body);
        expect(res.status).toBe(403);
        expect(res.headers.get('set-cookie')).toBeNull();
      }
      expect((await (await browse(h, 'GET', '/api/v1/auth/config')).json()).signup).toBe('closed');
      expect(await h.store.users.findByEmail('closed@example.com')).toBeUndefined();
    });

    it('needs an invitation in invite mode, and joins its organization with its role', async () => {
      accounts.signup = 'invite';
      expect((await signup(person('uninvited@example.com'))).status).toBe(403);
      const { token } = await insertInvitation(h, h.a.id, { role: 'viewer' });
      const res = await signup({ ...person('Invited@Example.com'), invitation: token });
      expect(res.status).toBe(201);
      const account = await res.json();
      expect(account.user.email).toBe('invited@example.com');
      expect(account.organizations).toEqual([{ id: h.a.id, key: 'alpha', name: 'Alpha', role: 'viewer' }]);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: sessionSet(res) })).status).toBe(200);
      // The link is spent.
      const again = await signup({ ...person('second@example.com'), invitation: token });
      expect(again.status).toBe(410);
      expect((await again.json()).type).toBe(`${PROBLEMS}invitation-used`);
      expect(await h.store.users.findByEmail('second@example.com')).toBeUndefined();
    });

    it('refuses an invitation for another email, and an email that has an account', async () => {
      accounts.signup = 'invite';
      const { token } = await insertInvitation(h, h.a.id, { email: 'bob@example.com' });
      expect((await signup({ ...person('eve@example.com'), invitation: token })).status).toBe(403);
      expect((await signup({ ...person('BOB@example.com'), invitation: token })).status).toBe(201);
      const other = await insertInvitation(h, h.a.id);
      const taken = await signup({ ...person('bob@example.com'), invitation: other.token });
      expect(taken.status).toBe(409);
    });

    it('creates an organization of the new user’s own in open mode, or joins the invitation’s', async () => {
      accounts.signup = 'open';
      const res = await signup(person('ada.lovelace@example.com'));
      expect(res.status).toBe(201);
      expect((await res.json()).organizations).toEqual([expect.objectContaining({ key: 'ada-lovelace', name: "Nia New's organization", role: 'owner' })]);
      // The same local part elsewhere gets the next free key.
      expect((await (await signup(person('ada.lovelace@example.org'))).json()).organizations[0].key).toBe('ada-lovelace-2');
      const { token } = await insertInvitation(h, h.b.id, { role: 'editor' });
      const joined = await signup({ ...person('joiner@example.com'), invitation: token });
      expect((await joined.json()).organizations).toEqual([{ id: h.b.id, key: 'beta', name: 'Beta', role: 'editor' }]);
    });

    it('names invalid fields, and refuses another site', async () => {
      accounts.signup = 'open';
      const invalid = await signup({ email: 'nope', name: '', password: 'short' });
      expect(invalid.status).toBe(400);
      expect((await invalid.json()).errors.map((e: { path: string }) => e.path).sort()).toEqual(['body.email', 'body.name', 'body.password']);
      expect((await signup(person('csrf@example.com'), 'https://evil.test')).status).toBe(403);
    });
  });

  describe.skipIf(!dialect.available)(`invitation links on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('previews an invitation publicly, never cached', async () => {
      const { token } = await insertInvitation(h, h.a.id, { role: 'admin', email: 'dee@example.com' });
      const res = await browse(h, 'GET', `/api/v1/auth/invitations/${token}`, { origin: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ organization: { key: 'alpha', name: 'Alpha' }, role: 'admin', email: 'dee@example.com', expiresAt: h.clock.now() + 24 * 3600_000 });
    });

    it('answers 404 for a token never issued and 410 for a used, withdrawn or expired one', async () => {
      expect((await browse(h, 'GET', `/api/v1/auth/invitations/${generateSecret('invitation')}`)).status).toBe(404);
      expect((await browse(h, 'GET', '/api/v1/auth/invitations/not-a-token')).status).toBe(404);
      const revoked = await insertInvitation(h, h.a.id, { revokedAt: h.clock.now() });
      const expired = await insertInvitation(h, h.a.id, { expiresAt: h.clock.now() - 1 });
      for (const [token, code] of [
        [revoked.token, 'invitation-revoked'],
        [expired.token, 'invitation-expired'],
      ] as const) {
        const res = await browse(h, 'GET', `/api/v1/auth/invitations/${token}`);
        expect(res.status).toBe(410);
        expect((await res.json()).type).toBe(`${PROBLEMS}${code}`);
      }
    });

    it('lets a signed-in user accept: they join with the role, once', async () => {
      const user = await signedInUser(h.context, [{ organizationId: h.b.id, role: 'viewer' }]);
      const { token } = await insertInvitation(h, h.a.id, { role: 'editor' });
      expect((await browse(h, 'POST', '/api/v1/auth/invitations/accept', { body: { token } })).status).toBe(401);
      expect((await browse(h, 'POST', '/api/v1/auth/invitations/accept', { session: user.token, body: { token }, origin: 'https://evil.test' })).status).toBe(403);
      const res = await browse(h, 'POST', '/api/v1/auth/invitations/accept', { session: user.token, body: { token } });
      expect(res.status).toBe(200);
      expect((await res.json()).organizations.map((o: { key: string; role: string }) => `${o.key}:${o.role}`)).toEqual(['alpha:editor', 'beta:viewer']);
      expect((await browse(h, 'GET', '/api/v1/monitors', { session: user.token, headers: { 'x-warden-organization': 'alpha' } })).status).toBe(200);
      const again = await browse(h, 'POST', '/api/v1/auth/invitations/accept', { session: user.token, body: { token } });
      expect(again.status).toBe(410);
      // Entries of one instant come in no set order: look for it among them.
      const entries = await h.store.audit.list({ organizationId: h.a.id, limit: 50 });
      expect(entries.filter((e) => e.action === 'invitation.accept' && e.actorId === user.userId)).toEqual([
        expect.objectContaining({ actorKind: 'user', objectLabel: user.email, detail: { role: 'editor' } }),
      ]);
    });

    it('keeps the stronger role of a member invited again, and refuses an invitation for another email', async () => {
      const owner = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'owner' }]);
      const viewerInvite = await insertInvitation(h, h.a.id, { role: 'viewer' });
      const res = await browse(h, 'POST', '/api/v1/auth/invitations/accept', { session: owner.token, body: { token: viewerInvite.token } });
      expect((await res.json()).organizations).toEqual([expect.objectContaining({ key: 'alpha', role: 'owner' })]);
      const forBob = await insertInvitation(h, h.b.id, { email: 'bob@example.com' });
      const refused = await browse(h, 'POST', '/api/v1/auth/invitations/accept', { session: owner.token, body: { token: forBob.token } });
      expect(refused.status).toBe(403);
      // Still usable by Bob.
      expect((await browse(h, 'GET', `/api/v1/auth/invitations/${forBob.token}`)).status).toBe(200);
    });
  });
}
