// Invitation links from the invited side: the public preview, accepting one signed in, and every way a link can no
// longer be used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { browse, insertInvitation } from '../../../../test/auth-browser.js';
import { dialects } from '../../../../test/store-dialects.js';
import { generateSecret } from '../../../domain/tokens.js';

const PROBLEMS = 'https://warden.dev/problems/';

for (const dialect of dialects) {
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
      expect(await res.json()).toEqual({
        organization: { key: 'alpha', name: 'Alpha' },
        role: 'admin',
        email: 'dee@example.com',
        expiresAt: h.clock.now() + 24 * 3600_000,
      });
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
      expect(
        (
          await browse(h, 'POST', '/api/v1/auth/invitations/accept', {
            session: user.token,
            body: { token },
            origin: 'https://evil.test',
          })
        ).status,
      ).toBe(403);
      const res = await browse(h, 'POST', '/api/v1/auth/invitations/accept', { session: user.token, body: { token } });
      expect(res.status).toBe(200);
      expect((await res.json()).organizations.map((o: { key: string; role: string }) => `${o.key}:${o.role}`)).toEqual([
        'alpha:editor',
        'beta:viewer',
      ]);
      expect(
        (
          await browse(h, 'GET', '/api/v1/monitors', {
            session: user.token,
            headers: { 'x-warden-organization': 'alpha' },
          })
        ).status,
      ).toBe(200);
      const again = await browse(h, 'POST', '/api/v1/auth/invitations/accept', {
        session: user.token,
        body: { token },
      });
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
      const res = await browse(h, 'POST', '/api/v1/auth/invitations/accept', {
        session: owner.token,
        body: { token: viewerInvite.token },
      });
      expect((await res.json()).organizations).toEqual([expect.objectContaining({ key: 'alpha', role: 'owner' })]);
      const forBob = await insertInvitation(h, h.b.id, { email: 'bob@example.com' });
      const refused = await browse(h, 'POST', '/api/v1/auth/invitations/accept', {
        session: owner.token,
        body: { token: forBob.token },
      });
      expect(refused.status).toBe(403);
      // Still usable by Bob.
      expect((await browse(h, 'GET', `/api/v1/auth/invitations/${forBob.token}`)).status).toBe(200);
    });
  });
}
