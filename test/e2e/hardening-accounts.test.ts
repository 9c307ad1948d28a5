// Accounts hardening (issue 32) against a real server on each database, its mail through a real SMTP exchange: a new
// email waits for the link mailed to it (so nobody takes an invitation by renaming himself), sign-up answers alike
// whether or not an address has an account, a known device keeps its owner in however many guesses others make, and
// sensitive changes need a fresh proof. In cluster mode the limits and the known-device key are the cluster's.
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_LIMITS } from '../../src/domain/account.js';
import { signedInUser } from '../accounts.js';
import { clusterAvailable, REDIS_PREFIX_SETTING, REDIS_URL } from '../cluster-harness.js';
import { type FakeSmtpServer, startSmtpFake } from '../fakes/smtp-server.js';
import { testContext } from '../seed.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const YAML = 'organization: { key: acme, name: Acme }\n';
const PROBLEMS = 'https://warden.dev/problems/';
const PASSWORD = 'correct horse battery';
const MINUTE = 60_000;

/** A browser: the cookies the server set (session, known device), its address (X-Forwarded-For is trusted) and Warden's origin. */
class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly url: () => string,
    public address: string,
  ) {}

  async send(method: string, path: string, body?: unknown): Promise<Response> {
    const res = await fetch(`${this.url()}${path}`, {
      method,
      headers: {
        origin: this.url(),
        'x-forwarded-for': this.address,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookies.size > 0
          ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') }
          : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  login(email: string, password: string, code?: string): Promise<Response> {
    return this.send('POST', '/api/v1/auth/login', { email, password, ...(code === undefined ? {} : { code }) });
  }
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`account hardening against a real server (${dialect.name})`, () => {
    let s: SeededWarden;
    let smtp: FakeSmtpServer;
    let offset = 0;
    const clock = { now: () => Date.now() + offset };
    let client = 0;
    /** A browser from an address of its own. */
    const browser = () => new Browser(() => s.url, `198.51.100.${++client}`);
    const person = (role: 'owner' | 'viewer' = 'viewer', options: { email?: string } = {}) =>
      signedInUser(
        { ...testContext(s.opened.store, clock), organizationId: s.organizationId },
        [{ organizationId: s.organizationId, role }],
        options,
      );
    /** The next mail to `to`, taken off the list, parsed. */
    const mailTo = async (to: string) => {
      await vi.waitFor(() => expect(smtp.messages.some((m) => m.to.includes(to))).toBe(true), { timeout: 5000 });
      const found = smtp.messages.find((m) => m.to.includes(to));
      smtp.messages.splice(smtp.messages.indexOf(found as (typeof smtp.messages)[number]), 1);
      return (await found?.parse()) as { subject: string; text: string };
    };
    const linkIn = (text: string, page: string) => new RegExp(`/app/${page}\\?token=(wdu_[\\w-]+)`).exec(text)?.[1];

    beforeAll(async () => {
      smtp = await startSmtpFake();
      const env = {
        WARDEN_TRUST_PROXY: '1',
        WARDEN_SMTP_URL: `smtp://127.0.0.1:${smtp.port}?secure=none`,
        WARDEN_SMTP_FROM: 'Warden <warden@example.com>',
      };
      s = await startSeededWarden(dialect, YAML, env, { clock });
    });
    afterAll(async () => {
      await s?.close();
      await smtp?.close();
    });

    it('changes an email only once the link mailed to it is followed, so a stranger cannot take an invitation by renaming himself', {
      timeout: scaled(30_000),
    }, async () => {
      const invited = await fetch(`${s.url}/api/v1/invitations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.writeKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'invitee@example.com', role: 'admin' }),
      });
      const { link } = await invited.json();
      const invitation = new URL(link).searchParams.get('token');
      await mailTo('invitee@example.com');

      const stranger = await person('viewer', { email: 'stranger@example.com' });
      const strangers = browser();
      expect((await strangers.login(stranger.email, PASSWORD)).status).toBe(200);
      const renamed = await strangers.send('PATCH', '/api/v1/auth/me', { email: 'Invitee@Example.com' });
      expect(renamed.status).toBe(202);
      expect((await renamed.json()).user.email).toBe('stranger@example.com');
      const accept = await strangers.send('POST', '/api/v1/auth/invitations/accept', { token: invitation });
      expect(accept.status).toBe(403);
      // The link went to the invitee's mailbox, not the stranger's.
      expect((await mailTo('invitee@example.com')).subject).toBe('Confirm your email address for Warden');

      // The owner of an account moves it for real: the link, followed (in any browser), then the old address is told.
      const owner = await person('owner');
      const owners = browser();
      expect((await owners.login(owner.email, PASSWORD)).status).toBe(200);
      expect((await owners.send('PATCH', '/api/v1/auth/me', { email: 'owner.new@example.com' })).status).toBe(202);
      const token = linkIn((await mailTo('owner.new@example.com')).text, 'confirm-email');
      const confirmed = await browser().send('POST', '/api/v1/auth/email/confirm', { token });
      expect(confirmed.status).toBe(200);
      expect((await mailTo(owner.email)).subject).toBe('Your Warden account has a new email address');
      expect((await (await owners.send('GET', '/api/v1/auth/me')).json()).user).toMatchObject({
        email: 'owner.new@example.com',
        emailVerified: true,
      });
      expect((await browser().login('owner.new@example.com', PASSWORD)).status).toBe(200);
    });

    it('answers a sign-up alike whether or not the address has an account, checking the invitation first, a few times an hour per address', {
      timeout: scaled(60_000),
    }, async () => {
      const known = await person();
      const stranger = browser();
      const signup = (email: string, invitation?: string) =>
        stranger.send('POST', '/api/v1/auth/signup', {
          email,
          name: 'Sam',
          password: 'a long enough password',
          ...(invitation ? { invitation } : {}),
        });
      for (const invitation of [undefined, `wdi_${randomBytes(24).toString('base64url')}`]) {
        const answers = [await signup(known.email, invitation), await signup('unknown@example.com', invitation)];
        expect(answers.map((a) => a.status)).toEqual(invitation ? [404, 404] : [403, 403]);
        const [a, b] = await Promise.all(answers.map((r) => r.json()));
        expect(a).toEqual(b);
      }
      const invited = await fetch(`${s.url}/api/v1/invitations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.writeKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ role: 'editor' }),
      });
      const invitation = new URL((await invited.json()).link).searchParams.get('token') as string;
      const answers = [await signup(known.email, invitation), await signup('unknown@example.com', invitation)];
      expect(answers.map((a) => a.status)).toEqual([202, 202]);
      expect(answers.map((a) => a.headers.getSetCookie())).toEqual([[], []]);
      const bodies = await Promise.all(answers.map((r) => r.json()));
      expect(Object.keys(bodies[0])).toEqual(Object.keys(bodies[1]));
      expect((await mailTo(known.email)).subject).toBe('You already have a Warden account');
      const token = linkIn((await mailTo('unknown@example.com')).text, 'confirm-signup');
      const finished = await browser().send('POST', '/api/v1/auth/signup/confirm', { token });
      expect(finished.status).toBe(201);
      expect((await finished.json()).organizations).toEqual([expect.objectContaining({ key: 'acme', role: 'editor' })]);

      // Six sign-ups so far from this address (the invitation is used now): the rest of the hour's ten, then 429.
      for (let n = 0; n < ACCOUNT_LIMITS.signupsPerClientPerHour - 6; n++)
        expect((await signup(`eager-${n}@example.com`, invitation)).status).toBe(410);
      const limited = await signup('one-more@example.com', invitation);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3000);
      expect((await limited.json()).type).toBe(`${PROBLEMS}too-many-attempts`);
      stranger.address = '198.51.100.250';
      expect((await signup('one-more@example.com', invitation)).status).toBe(410);
    });

    it('keeps the owner in from a known device while one client fills the account’s limit with wrong passwords', {
      timeout: scaled(60_000),
    }, async () => {
      const owner = await person('owner');
      const owners = browser();
      expect((await owners.login(owner.email, PASSWORD)).status).toBe(200);
      expect(owners.cookies.get('warden_device')).toBeDefined();

      const attacker = browser();
      for (let n = 0; n < 10; n++) expect((await attacker.login(owner.email, `guess number ${n}`)).status).toBe(401);
      const refused = await attacker.login(owner.email, `guess number 10`);
      expect(refused.status).toBe(429);
      // A browser the owner never signed in from is held back like the guesser: guessing stays 10 a minute per account.
      expect((await browser().login(owner.email, PASSWORD)).status).toBe(429);
      // The owner's own browser gets in, from its address and even from the guesser's.
      expect((await owners.login(owner.email, PASSWORD)).status).toBe(200);
      owners.address = attacker.address;
      expect((await owners.login(owner.email, PASSWORD)).status).toBe(200);
      offset += MINUTE + 1000;
    });

    it('asks for a fresh proof before new recovery codes, TOTP on or off and a new email, and takes one with the request', {
      timeout: scaled(60_000),
    }, async () => {
      const user = await person();
      const b = browser();
      expect((await b.login(user.email, PASSWORD)).status).toBe(200);
      // Just signed in: TOTP goes on without asking again.
      const { secret } = await (await b.send('POST', '/api/v1/auth/totp')).json();
      const code = (later = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now() + later });
      expect((await b.send('POST', '/api/v1/auth/totp/confirm', { code: code() })).status).toBe(200);

      offset += ACCOUNT_LIMITS.freshProofMs + 1000;
      for (const [method, path, body] of [
        ['POST', '/api/v1/auth/recovery-codes', undefined],
        ['DELETE', '/api/v1/auth/totp', undefined],
        ['PATCH', '/api/v1/auth/me', { email: 'elsewhere@example.com' }],
      ] as const) {
        const stale = await b.send(method, path, body);
        expect(stale.status, path).toBe(403);
        expect((await stale.json()).type).toBe(`${PROBLEMS}reauthentication-required`);
      }
      expect(smtp.messages.filter((m) => m.to.includes('elsewhere@example.com'))).toEqual([]);
      // A code with the request proves it; the proof then holds for a few minutes.
      const codes = await b.send('POST', '/api/v1/auth/recovery-codes', { code: code(30_000) });
      expect(codes.status).toBe(200);
      expect((await codes.json()).recoveryCodes).toHaveLength(10);
      offset += 2 * MINUTE;
      expect((await b.send('DELETE', '/api/v1/auth/totp')).status).toBe(204);
      offset += ACCOUNT_LIMITS.freshProofMs + 1000;
      expect((await b.send('POST', '/api/v1/auth/totp')).status).toBe(403);
      expect((await b.send('POST', '/api/v1/auth/totp', { password: 'not my password' })).status).toBe(400);
      expect((await b.send('POST', '/api/v1/auth/totp', { password: PASSWORD })).status).toBe(200);
    });
  });

describe.skipIf(!clusterAvailable)('account limits in cluster mode', () => {
  let s: SeededWarden;
  const postgres = dialects.find((d) => d.name === 'postgres');
  const cluster = {
    REDIS_URL,
    [REDIS_PREFIX_SETTING]: `test-${randomBytes(6).toString('hex')}`,
    WARDEN_TRUST_PROXY: '1',
  };
  beforeAll(async () => {
    if (postgres) s = await startSeededWarden(postgres, YAML, cluster);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('counts an account’s wrong passwords across processes, and lets its known device in on either', {
    timeout: scaled(60_000),
  }, async () => {
    const other = (await s.another(cluster)).url.replace('localhost', '127.0.0.1');
    const owner = await signedInUser(
      { ...testContext(s.opened.store, { now: () => Date.now() }), organizationId: s.organizationId },
      [{ organizationId: s.organizationId, role: 'owner' }],
    );
    const owners = new Browser(() => s.url, '198.51.100.1');
    expect((await owners.login(owner.email, PASSWORD)).status).toBe(200);
    const guesser = (url: string, n: number) => new Browser(() => url, `203.0.113.${n}`);
    // Five wrong on each process, each from its own address: the account's ten are used up across both.
    for (let n = 0; n < 10; n++)
      expect((await guesser(n % 2 === 0 ? s.url : other, n).login(owner.email, `guess ${n}`)).status).toBe(401);
    expect((await guesser(other, 50).login(owner.email, PASSWORD)).status).toBe(429);
    expect((await guesser(s.url, 51).login(owner.email, PASSWORD)).status).toBe(429);
    // The device signed on one process is known on the other (one key for the cluster, in the database).
    const onOther = new Browser(() => other, owners.address);
    for (const [name, value] of owners.cookies) onOther.cookies.set(name, value);
    expect((await onOther.login(owner.email, PASSWORD)).status).toBe(200);
  });
});
