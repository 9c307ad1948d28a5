// Changing one's email: PATCH /api/v1/auth/me mails a link to the new address (202, the same whether or not another
// account has it), and only following it (POST /api/v1/auth/email/confirm) moves the account, verified; the old address
// is told. Invitations naming an email trust verified addresses only. Mail goes through a real SMTP exchange.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SignedInUser, signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { browse, insertInvitation } from '../../../../test/auth-browser.js';
import { type FakeSmtpServer, startSmtpFake } from '../../../../test/fakes/smtp-server.js';
import { dialects } from '../../../../test/store-dialects.js';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';

const PROBLEMS = 'https://warden.dev/problems/';
const CONFIRM_LINK = /http:\/\/warden\.test\/app\/confirm-email\?token=(wdu_[\w-]+)/;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`changing the email on ${dialect.name}`, () => {
    let h: ApiHarness;
    let smtp: FakeSmtpServer;
    beforeAll(async () => {
      smtp = await startSmtpFake();
      h = await openApiHarness(dialect, {
        security: { loginAttemptsPerMinute: 1000 },
        smtp: {
          host: smtp.host,
          port: smtp.port,
          secure: 'none',
          tlsRejectUnauthorized: true,
          from: { address: 'warden@example.com', name: 'Warden' },
        },
      });
    });
    afterAll(async () => {
      await h?.close();
      await smtp?.close();
    });
    const member = (options: { email?: string; verified?: boolean } = {}) =>
      signedInUser(h.context, [{ organizationId: h.b.id, role: 'viewer' }], options);
    const patch = (user: SignedInUser, body: Record<string, unknown>) =>
      browse(h, 'PATCH', '/api/v1/auth/me', { session: user.token, body });
    const me = async (user: SignedInUser) =>
      (await (await browse(h, 'GET', '/api/v1/auth/me', { session: user.token })).json()).user;
    /** The next mail to `to` (taken off the list), parsed. */
    const mailTo = async (to: string) => {
      await vi.waitFor(() => expect(smtp.messages.some((m) => m.to.includes(to))).toBe(true));
      const found = smtp.messages.find((m) => m.to.includes(to));
      smtp.messages.splice(smtp.messages.indexOf(found as (typeof smtp.messages)[number]), 1);
      return (await found?.parse()) as { subject: string; text: string; html: string | false };
    };
    const confirm = (token: string | undefined) => browse(h, 'POST', '/api/v1/auth/email/confirm', { body: { token } });

    it('mails a link to the new address (202) and changes nothing until it is followed; then the old address is told', async () => {
      const user = await member();
      const res = await patch(user, { email: 'Grace@Example.COM', name: 'Grace' });
      expect(res.status).toBe(202);
      const body = await res.json();
      expect(body.emailChange).toEqual({
        email: 'grace@example.com',
        expiresAt: h.clock.now() + ACCOUNT_LIMITS.emailLinkLifetimeMs,
      });
      expect(body.user).toMatchObject({ email: user.email, name: 'Grace', emailVerified: true });
      expect((await me(user)).email).toBe(user.email);
      expect(
        (
          await browse(h, 'POST', '/api/v1/auth/login', {
            body: { email: 'grace@example.com', password: user.password },
          })
        ).status,
      ).toBe(401);

      const mail = await mailTo('grace@example.com');
      expect(mail.subject).toBe('Confirm your email address for Warden');
      const token = CONFIRM_LINK.exec(mail.text)?.[1];
      expect(token).toBeDefined();
      expect(mail.html).toContain(`confirm-email?token=${token}`);
      // No session is needed: the link is the proof.
      const confirmed = await confirm(token);
      expect(confirmed.status).toBe(200);
      expect(await confirmed.json()).toEqual({ email: 'grace@example.com' });
      expect(await me(user)).toMatchObject({ email: 'grace@example.com', emailVerified: true });
      expect(
        (
          await browse(h, 'POST', '/api/v1/auth/login', {
            body: { email: 'grace@example.com', password: user.password },
          })
        ).status,
      ).toBe(200);
      const told = await mailTo(user.email);
      expect(told.subject).toBe('Your Warden account has a new email address');
      expect(told.text).toContain('grace@example.com');
      // Once.
      const again = await confirm(token);
      expect(again.status).toBe(410);
      expect((await again.json()).type).toBe(`${PROBLEMS}link-unusable`);
    });

    it('answers the same for an address another account has, and mails its holder instead of sending a link', async () => {
      const holder = await member();
      const user = await member();
      const fresh = await member();
      const taken = await patch(user, { email: holder.email });
      const free = await patch(fresh, { email: 'free-address@example.com' });
      expect([taken.status, free.status]).toEqual([202, 202]);
      const [a, b] = [await taken.json(), await free.json()];
      expect(Object.keys(a)).toEqual(Object.keys(b));
      expect(a.emailChange.expiresAt).toBe(b.emailChange.expiresAt);
      const note = await mailTo(holder.email);
      expect(note.subject).toBe('You already have a Warden account');
      expect(note.text).not.toMatch(CONFIRM_LINK);
      expect((await mailTo('free-address@example.com')).text).toMatch(CONFIRM_LINK);
      expect((await me(user)).email).toBe(user.email);
    });

    it('needs a fresh proof: past 5 minutes 403, then the password with the request (a wrong one 400)', async () => {
      const user = await member();
      h.clock.advance(ACCOUNT_LIMITS.freshProofMs + 1);
      const stale = await patch(user, { email: 'stale@example.com' });
      expect(stale.status).toBe(403);
      expect((await stale.json()).type).toBe(`${PROBLEMS}reauthentication-required`);
      const wrong = await patch(user, { email: 'stale@example.com', password: 'not my password' });
      expect(wrong.status).toBe(400);
      expect((await wrong.json()).errors).toEqual([{ path: 'body.password', message: 'is not your password' }]);
      expect(smtp.messages.filter((m) => m.to.includes('stale@example.com'))).toEqual([]);
      expect((await patch(user, { email: 'stale@example.com', password: user.password })).status).toBe(202);
      await mailTo('stale@example.com');
      // The name alone needs nothing.
      expect((await patch(user, { name: 'Still me' })).status).toBe(200);
    });

    it(`mails at most ${ACCOUNT_LIMITS.emailLinksPerUserPerHour} links an hour per user, then 429 with Retry-After`, async () => {
      const user = await member();
      for (let n = 0; n < ACCOUNT_LIMITS.emailLinksPerUserPerHour; n++)
        expect((await patch(user, { email: `try-${n}@example.com` })).status).toBe(202);
      const limited = await patch(user, { email: 'one-more@example.com' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBe(3600);
      h.clock.advance(3600_000);
      expect((await patch(user, { email: 'one-more@example.com', password: user.password })).status).toBe(202);
    });

    it('confirms one address: the other links then stop working, and an address taken meanwhile is refused (409)', async () => {
      const user = await member();
      await patch(user, { email: 'first@example.com' });
      await patch(user, { email: 'second@example.com' });
      const first = CONFIRM_LINK.exec((await mailTo('first@example.com')).text)?.[1];
      const second = CONFIRM_LINK.exec((await mailTo('second@example.com')).text)?.[1];
      expect((await confirm(second)).status).toBe(200);
      expect((await confirm(first)).status).toBe(410);

      const other = await member();
      await patch(other, { email: 'contested@example.com' });
      const link = CONFIRM_LINK.exec((await mailTo('contested@example.com')).text)?.[1];
      await h.store.users.update(user.userId, { email: 'contested@example.com' }, h.clock.now());
      expect((await confirm(link)).status).toBe(409);
      expect((await me(other)).email).toBe(other.email);
      // An expired link.
      const late = await member();
      await patch(late, { email: 'late@example.com' });
      const lateLink = CONFIRM_LINK.exec((await mailTo('late@example.com')).text)?.[1];
      h.clock.advance(ACCOUNT_LIMITS.emailLinkLifetimeMs);
      expect((await confirm(lateLink)).status).toBe(410);
    });

    it('lets nobody take an invitation by renaming themselves to its address: only a verified one accepts it', async () => {
      const { token } = await insertInvitation(h, h.a.id, { role: 'admin', email: 'invitee@example.com' });
      const stranger = await member();
      // The rename waits for the invitee's mailbox...
      expect((await patch(stranger, { email: 'invitee@example.com' })).status).toBe(202);
      const refused = await browse(h, 'POST', '/api/v1/auth/invitations/accept', {
        session: stranger.token,
        body: { token },
      });
      expect(refused.status).toBe(403);
      await mailTo('invitee@example.com');
      // ...and an address that was set without proof (an account of before, or one the store was told) is not enough either.
      const unverified = await member({ email: 'invitee@example.com', verified: false });
      const stillRefused = await browse(h, 'POST', '/api/v1/auth/invitations/accept', {
        session: unverified.token,
        body: { token },
      });
      expect(stillRefused.status).toBe(403);
      expect((await stillRefused.json()).detail).toContain('confirm');
      expect((await me(unverified)).emailVerified).toBe(false);
      // Confirming one's own address (the same email, sent again) mails a link; followed, the invitation is theirs.
      expect((await patch(unverified, { email: 'invitee@example.com' })).status).toBe(202);
      expect((await confirm(CONFIRM_LINK.exec((await mailTo('invitee@example.com')).text)?.[1])).status).toBe(200);
      expect((await me(unverified)).emailVerified).toBe(true);
      const accepted = await browse(h, 'POST', '/api/v1/auth/invitations/accept', {
        session: unverified.token,
        body: { token },
      });
      expect(accepted.status).toBe(200);
      expect(
        (await accepted.json()).organizations.map((o: { key: string; role: string }) => `${o.key}:${o.role}`),
      ).toContain('alpha:admin');
    });
  });
}
