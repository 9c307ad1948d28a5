import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SignedInUser, signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, BASE_URL, openApiHarness } from '../../../../test/api-app.js';
import { type FakeSmtpServer, startSmtpFake } from '../../../../test/fakes/smtp-server.js';
import { dialects } from '../../../../test/store-dialects.js';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';
import { hashSecret } from '../../../domain/tokens.js';

const LINK = /^http:\/\/warden\.test\/app\/invite\?token=(wdi_[A-Za-z0-9_-]+)$/;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`invitations on ${dialect.name}`, () => {
    let h: ApiHarness;
    let smtp: FakeSmtpServer;
    let owner: SignedInUser;
    let admin: SignedInUser;
    let editor: SignedInUser;
    beforeAll(async () => {
      smtp = await startSmtpFake();
      h = await openApiHarness(dialect, {
        smtp: {
          host: smtp.host,
          port: smtp.port,
          secure: 'none',
          tlsRejectUnauthorized: true,
          from: { address: 'warden@example.com', name: 'Warden' },
        },
      });
      owner = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'owner' }]);
      admin = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'admin' }], { name: 'Ada Admin' });
      editor = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'editor' }], {
        email: 'editor@example.com',
      });
    });
    afterAll(async () => {
      await h?.close();
      await smtp?.close();
    });

    const as = (user: SignedInUser, method: string, path: string, body?: unknown) =>
      h.call(method, path, { key: null, body, headers: { cookie: user.cookie, origin: BASE_URL } });

    it('answers the link once, keeps only its hash, and mails it to the address given', async () => {
      const res = await as(admin, 'POST', '/api/v1/invitations', { email: 'New.Person@Example.com', role: 'editor' });
      expect(res.status).toBe(201);
      const { invitation, link, mailed } = await res.json();
      expect(invitation).toEqual({
        id: expect.stringMatching(/^inv_/),
        email: 'new.person@example.com',
        role: 'editor',
        createdBy: admin.userId,
        createdAt: h.clock.now(),
        expiresAt: h.clock.now() + ACCOUNT_LIMITS.invitationLifetimeMs,
        expired: false,
      });
      expect(mailed).toBe(true);
      const token = LINK.exec(link)?.[1] as string;
      expect(token).toBeDefined();
      expect((await h.store.invitations.findByHash(hashSecret(token)))?.id).toBe(invitation.id);

      await vi.waitFor(() => expect(smtp.messages).toHaveLength(1));
      const message = smtp.messages[0];
      expect(message?.to).toEqual(['new.person@example.com']);
      const mail = await message?.parse();
      expect(mail?.subject).toBe('Join Alpha on Warden');
      expect(mail?.text).toContain(link);
      expect(mail?.text).toContain('Ada Admin invites you to join Alpha on Warden as an editor.');
      expect(mail?.html).toContain(link);

      // The link is never shown again.
      const listed = await (await as(admin, 'GET', '/api/v1/invitations')).text();
      expect(listed).toContain(invitation.id);
      expect(listed).not.toContain(token);
    });

    it('answers a link without mail when no address is given', async () => {
      const before = smtp.messages.length;
      const res = await h.call('POST', '/api/v1/invitations', { body: { role: 'viewer' } });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body).toMatchObject({ invitation: { email: null, role: 'viewer', createdBy: null }, mailed: false });
      expect(body.link).toMatch(LINK);
      expect(smtp.messages).toHaveLength(before);
    });

    it('lets only owners invite owners, only admins invite at all, and refuses to invite a member', async () => {
      expect((await as(admin, 'POST', '/api/v1/invitations', { role: 'owner' })).status).toBe(403);
      expect((await h.call('POST', '/api/v1/invitations', { body: { role: 'owner' } })).status).toBe(403);
      expect((await as(owner, 'POST', '/api/v1/invitations', { role: 'owner' })).status).toBe(201);
      expect((await as(editor, 'POST', '/api/v1/invitations', { role: 'viewer' })).status).toBe(403);
      expect((await as(editor, 'GET', '/api/v1/invitations')).status).toBe(403);
      const member = await as(admin, 'POST', '/api/v1/invitations', { email: 'Editor@example.com', role: 'admin' });
      expect(member.status).toBe(409);
      expect((await as(admin, 'POST', '/api/v1/invitations', { email: 'not-an-address', role: 'viewer' })).status).toBe(
        400,
      );
    });

    it('revokes an invitation: its link stops working and it leaves the list', async () => {
      const { invitation, link } = await (await as(admin, 'POST', '/api/v1/invitations', { role: 'viewer' })).json();
      expect((await as(admin, 'DELETE', `/api/v1/invitations/${invitation.id}`)).status).toBe(204);
      expect((await as(admin, 'DELETE', `/api/v1/invitations/${invitation.id}`)).status).toBe(404);
      const { invitations } = await (await as(admin, 'GET', '/api/v1/invitations')).json();
      expect(invitations.map((i: { id: string }) => i.id)).not.toContain(invitation.id);
      const stored = await h.store.invitations.findByHash(hashSecret(LINK.exec(link)?.[1] as string));
      expect(stored?.revokedAt).toBe(h.clock.now());
      // Another organization's invitation is not found.
      const theirs = await (
        await h.call('POST', '/api/v1/invitations', { key: h.b.writeKey, body: { role: 'viewer' } })
      ).json();
      expect((await as(admin, 'DELETE', `/api/v1/invitations/${theirs.invitation.id}`)).status).toBe(404);
    });

    it('shows expired invitations as expired until revoked', async () => {
      const { invitation } = await (await as(admin, 'POST', '/api/v1/invitations', { role: 'viewer' })).json();
      h.clock.advance(ACCOUNT_LIMITS.invitationLifetimeMs);
      const { invitations } = await (await as(admin, 'GET', '/api/v1/invitations')).json();
      expect(invitations.find((i: { id: string }) => i.id === invitation.id)).toMatchObject({ expired: true });
    });

    it(`caps the pending invitations of an organization at ${ACCOUNT_LIMITS.pendingInvitationsPerOrganization}`, async () => {
      const now = h.clock.now();
      const pending = await h.store.invitations.countPending(h.b.id, now);
      await h.store.transaction(async (store) => {
        for (let i = pending; i < ACCOUNT_LIMITS.pendingInvitationsPerOrganization; i++)
          await store.invitations.insert({
            id: `inv_cap${i}`,
            organizationId: h.b.id,
            email: null,
            role: 'viewer',
            createdBy: null,
            createdAt: now,
            expiresAt: now + 60_000,
            acceptedAt: null,
            acceptedBy: null,
            revokedAt: null,
            hash: `cap${i}`,
          });
      });
      const res = await h.call('POST', '/api/v1/invitations', { key: h.b.writeKey, body: { role: 'viewer' } });
      expect(res.status).toBe(409);
      expect((await res.json()).detail).toContain('pending invitations');
    });
  });
}
