// Signing up as WARDEN_SIGNUP allows — without a mail server (at once) and with one (through a mailed link, answering
// alike whether or not the address has an account) — and the hourly cap per address (invitation links:
// invitations.test.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { browse, insertInvitation, sessionSet } from '../../../../test/auth-browser.js';
import { type FakeSmtpServer, startSmtpFake } from '../../../../test/fakes/smtp-server.js';
import { dialects } from '../../../../test/store-dialects.js';
import type { AccountSettings } from '../../../config/settings.js';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';
import { generateSecret } from '../../../domain/tokens.js';
import type { SmtpSettings } from '../../../notify/mail/smtp.js';

const PROBLEMS = 'https://warden.dev/problems/';
const person = (email: string) => ({ email, name: 'Nia New', password: 'correct horse battery staple' });
const smtpSettings = (server: FakeSmtpServer): SmtpSettings => ({
  host: server.host,
  port: server.port,
  secure: 'none',
  tlsRejectUnauthorized: true,
  from: { address: 'warden@example.com', name: 'Warden' },
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`signing up without a mail server on ${dialect.name}`, () => {
    let h: ApiHarness;
    const accounts: AccountSettings = { signup: 'invite', oidc: undefined };
    let client = 0;
    /** Each test from an address of its own (X-Forwarded-For is trusted here), so the hourly cap of sign-ups does not mix them. */
    let address = '';
    beforeAll(async () => {
      h = await openApiHarness(dialect, { accounts, security: { trustProxy: true } });
    });
    beforeEach(() => {
      address = `10.9.0.${++client}`;
    });
    afterAll(async () => {
      await h?.close();
    });
    const signup = (body: Record<string, unknown>, origin?: string) =>
      browse(h, 'POST', '/api/v1/auth/signup', {
        body,
        headers: { 'x-forwarded-for': address },
        ...(origin ? { origin } : {}),
      });

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
      expect(account.user).toMatchObject({ email: 'invited@example.com', emailVerified: false });
      expect(account.organizations).toEqual([{ id: h.a.id, key: 'alpha', name: 'Alpha', role: 'viewer' }]);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: sessionSet(res) })).status).toBe(200);
      // The link is spent.
      const again = await signup({ ...person('second@example.com'), invitation: token });
      expect(again.status).toBe(410);
      expect((await again.json()).type).toBe(`${PROBLEMS}invitation-used`);
      expect(await h.store.users.findByEmail('second@example.com')).toBeUndefined();
    });

    it('checks the invitation before the email: no usable one answers the same for a known and an unknown address', async () => {
      accounts.signup = 'invite';
      const known = await signedInUser(h.context, [{ organizationId: h.b.id, role: 'viewer' }]);
      const used = await insertInvitation(h, h.a.id);
      await h.store.invitations.accept(used.id, known.userId, h.clock.now());
      const forBob = await insertInvitation(h, h.a.id, { email: 'bob.b@example.com' });
      const cases: [Record<string, unknown>, number][] = [
        [{}, 403],
        [{ invitation: generateSecret('invitation') }, 404],
        [{ invitation: 'wdi_not-a-real-token' }, 404],
        [{ invitation: used.token }, 410],
        // An invitation naming another address: refused whoever the email is.
        [{ invitation: forBob.token }, 403],
      ];
      for (const [extra, status] of cases) {
        const answers = [];
        for (const email of [known.email, 'nobody-here@example.com']) {
          const res = await signup({ ...person(email), ...extra });
          expect(res.status, JSON.stringify(extra)).toBe(status);
          answers.push(await res.json());
        }
        expect(answers[0]).toEqual(answers[1]);
      }
    });

    it('makes the invited address verified, and refuses another one for an invitation naming it', async () => {
      accounts.signup = 'invite';
      const { token } = await insertInvitation(h, h.a.id, { email: 'bob@example.com' });
      expect((await signup({ ...person('eve@example.com'), invitation: token })).status).toBe(403);
      const bob = await signup({ ...person('BOB@example.com'), invitation: token });
      expect(bob.status).toBe(201);
      expect((await bob.json()).user).toMatchObject({ email: 'bob@example.com', emailVerified: true });
      // Without a mail server nothing can be said privately: an address that has an account answers 409.
      const other = await insertInvitation(h, h.a.id);
      expect((await signup({ ...person('bob@example.com'), invitation: other.token })).status).toBe(409);
    });

    it('creates an organization of the new user’s own in open mode, or joins the invitation’s', async () => {
      accounts.signup = 'open';
      const res = await signup(person('ada.lovelace@example.com'));
      expect(res.status).toBe(201);
      expect((await res.json()).organizations).toEqual([
        expect.objectContaining({ key: 'ada-lovelace', name: "Nia New's organization", role: 'owner' }),
      ]);
      // The same local part elsewhere gets the next free key.
      expect((await (await signup(person('ada.lovelace@example.org'))).json()).organizations[0].key).toBe(
        'ada-lovelace-2',
      );
      const { token } = await insertInvitation(h, h.b.id, { role: 'editor' });
      const joined = await signup({ ...person('joiner@example.com'), invitation: token });
      expect((await joined.json()).organizations).toEqual([{ id: h.b.id, key: 'beta', name: 'Beta', role: 'editor' }]);
    });

    it(`takes ${ACCOUNT_LIMITS.signupsPerClientPerHour} sign-ups an hour from one address, then 429 with Retry-After`, async () => {
      accounts.signup = 'open';
      for (let n = 0; n < ACCOUNT_LIMITS.signupsPerClientPerHour; n++)
        expect((await signup(person(`eager-${n}@example.com`))).status).toBe(201);
      const limited = await signup(person('patient@example.com'));
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3000);
      expect((await limited.json()).type).toBe(`${PROBLEMS}too-many-attempts`);
      expect(await h.store.users.findByEmail('patient@example.com')).toBeUndefined();
      // Another address is not affected; this one may again an hour later.
      const elsewhere = await browse(h, 'POST', '/api/v1/auth/signup', {
        body: person('elsewhere@example.com'),
        headers: { 'x-forwarded-for': '10.9.9.9' },
      });
      expect(elsewhere.status).toBe(201);
      h.clock.advance(3600_000);
      expect((await signup(person('patient@example.com'))).status).toBe(201);
    });

    it('names invalid fields, and refuses another site', async () => {
      accounts.signup = 'open';
      const invalid = await signup({ email: 'nope', name: '', password: 'short' });
      expect(invalid.status).toBe(400);
      expect((await invalid.json()).errors.map((e: { path: string }) => e.path).sort()).toEqual([
        'body.email',
        'body.name',
        'body.password',
      ]);
      expect((await signup(person('csrf@example.com'), 'https://evil.test')).status).toBe(403);
    });
  });

  describe.skipIf(!dialect.available)(`signing up with a mail server on ${dialect.name}`, () => {
    let h: ApiHarness;
    let smtp: FakeSmtpServer;
    const accounts: AccountSettings = { signup: 'invite', oidc: undefined };
    let client = 0;
    let address = '';
    beforeAll(async () => {
      smtp = await startSmtpFake();
      h = await openApiHarness(dialect, { accounts, security: { trustProxy: true }, smtp: smtpSettings(smtp) });
    });
    beforeEach(() => {
      address = `10.8.0.${++client}`;
    });
    afterAll(async () => {
      await h?.close();
      await smtp?.close();
    });
    const signup = (body: Record<string, unknown>) =>
      browse(h, 'POST', '/api/v1/auth/signup', { body, headers: { 'x-forwarded-for': address } });
    const mailTo = async (to: string) => {
      await vi.waitFor(() => expect(smtp.messages.some((m) => m.to.includes(to))).toBe(true));
      const found = smtp.messages.find((m) => m.to.includes(to));
      smtp.messages.splice(smtp.messages.indexOf(found as (typeof smtp.messages)[number]), 1);
      return (await found?.parse()) as { subject: string; text: string; html: string | false };
    };
    const linkIn = (text: string) => /http:\/\/warden\.test\/app\/confirm-signup\?token=(wdu_[\w-]+)/.exec(text)?.[1];

    it('answers 202 alike for a known and an unknown address, mailing the link to one and "you have an account" to the other', async () => {
      accounts.signup = 'invite';
      const known = await signedInUser(h.context, [{ organizationId: h.b.id, role: 'viewer' }]);
      const { token } = await insertInvitation(h, h.a.id, { role: 'editor' });
      const answers = [];
      for (const email of [known.email, 'newcomer@example.com']) {
        const res = await signup({ ...person(email), invitation: token });
        expect(res.status).toBe(202);
        expect(res.headers.get('set-cookie')).toBeNull();
        const body = await res.json();
        expect(body).toEqual({ email, expiresAt: h.clock.now() + ACCOUNT_LIMITS.emailLinkLifetimeMs });
        answers.push(Object.keys(body));
      }
      expect(answers[0]).toEqual(answers[1]);
      // Nothing exists yet, and the invitation is still unused.
      expect(await h.store.users.findByEmail('newcomer@example.com')).toBeUndefined();
      expect((await browse(h, 'GET', `/api/v1/auth/invitations/${token}`)).status).toBe(200);

      const knownMail = await mailTo(known.email);
      expect(knownMail.subject).toBe('You already have a Warden account');
      expect(knownMail.text).toContain(`http://warden.test/app/invite?token=${token}`);
      expect(linkIn(knownMail.text)).toBeUndefined();

      const mail = await mailTo('newcomer@example.com');
      expect(mail.subject).toBe('Finish creating your Warden account');
      expect(mail.text).toContain('join Alpha');
      const link = linkIn(mail.text) as string;
      expect(link).toBeDefined();

      // Following it makes the account (its address verified), joins the invitation's organization and signs in.
      const confirmed = await browse(h, 'POST', '/api/v1/auth/signup/confirm', { body: { token: link } });
      expect(confirmed.status).toBe(201);
      const account = await confirmed.json();
      expect(account.user).toMatchObject({ email: 'newcomer@example.com', name: 'Nia New', emailVerified: true });
      expect(account.organizations).toEqual([{ id: h.a.id, key: 'alpha', name: 'Alpha', role: 'editor' }]);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: sessionSet(confirmed) })).status).toBe(200);
      expect(
        (
          await browse(h, 'POST', '/api/v1/auth/login', {
            body: { email: 'newcomer@example.com', password: person('x').password },
          })
        ).status,
      ).toBe(200);
      const again = await browse(h, 'POST', '/api/v1/auth/signup/confirm', { body: { token: link } });
      expect(again.status).toBe(410);
      expect((await again.json()).type).toBe(`${PROBLEMS}link-unusable`);
    });

    it('in open mode too; a link stops working after a day, and an address taken meanwhile is not taken twice', async () => {
      accounts.signup = 'open';
      const first = await signup(person('twice@example.com'));
      const second = await signup({ ...person('twice@example.com'), name: 'Other' });
      expect([first.status, second.status]).toEqual([202, 202]);
      const links = [
        linkIn((await mailTo('twice@example.com')).text),
        linkIn((await mailTo('twice@example.com')).text),
      ];
      expect((await browse(h, 'POST', '/api/v1/auth/signup/confirm', { body: { token: links[0] } })).status).toBe(201);
      const late = await browse(h, 'POST', '/api/v1/auth/signup/confirm', { body: { token: links[1] } });
      expect(late.status).toBe(409);
      expect((await h.store.users.findByEmail('twice@example.com'))?.name).toBe('Nia New');

      await signup(person('slow@example.com'));
      const slow = linkIn((await mailTo('slow@example.com')).text);
      h.clock.advance(ACCOUNT_LIMITS.emailLinkLifetimeMs);
      expect((await browse(h, 'POST', '/api/v1/auth/signup/confirm', { body: { token: slow } })).status).toBe(410);
      expect(await h.store.users.findByEmail('slow@example.com')).toBeUndefined();
      expect(
        (await browse(h, 'POST', '/api/v1/auth/signup/confirm', { body: { token: 'wdu_nothing-like-it-was-made' } }))
          .status,
      ).toBe(410);
    });

    it('answers 503 alike when the mail server refuses, and makes nothing', async () => {
      accounts.signup = 'open';
      const refusing = await startSmtpFake({ rejectRecipients: { code: 550, message: 'No such user' } });
      const down = await openApiHarness(dialect, { accounts, smtp: smtpSettings(refusing) });
      try {
        await signedInUser(down.context, [], { email: 'here@example.com' });
        for (const email of ['here@example.com', 'not-here@example.com']) {
          const res = await browse(down, 'POST', '/api/v1/auth/signup', { body: person(email) });
          expect(res.status).toBe(503);
          expect((await res.json()).type).toBe(`${PROBLEMS}mail-not-sent`);
        }
        expect(await down.store.users.findByEmail('not-here@example.com')).toBeUndefined();
      } finally {
        await down.close();
        await refusing.close();
      }
    });
  });
}
