import { afterEach, describe, expect, it } from 'vitest';
import { type BlackHole, startTcpBlackHole } from '../../../test/fakes/black-holes.js';
import { createSelfSignedCertificate } from '../../../test/fakes/http-fakes.js';
import { type FakeSmtpServer, type SmtpFakeOptions, startSmtpFake } from '../../../test/fakes/smtp-server.js';
import { ANY_TARGET, PUBLIC_TARGETS_ONLY, type TargetGuard } from '../../net/target-guard.js';
import type { NotificationEvent, SendContext } from './channel.js';
import { buildEmail, type EmailConfig, emailChannel, emailConfig, messageId } from './email.js';

const event: NotificationEvent = {
  id: 'evt_01HZX4K9Q2',
  kind: 'monitor.down',
  at: Date.UTC(2025, 2, 1, 14, 5),
  severity: 'critical',
  title: 'Lobby <script>alert(1)</script> is down',
  reason: 'connect ECONNREFUSED 10.0.0.5:25565 & "more"',
  organization: { key: 'acme', name: 'Acme Games' },
  monitor: {
    id: 'mon_1',
    key: 'lobby',
    name: '<script>alert(1)</script> Lobby',
    type: 'minecraft-java',
    state: 'down',
    previousState: 'up',
    players: { online: 12, max: 100 },
  },
  pages: [{ slug: 'main', title: 'Acme status', url: 'https://status.acme.test/main' }],
};

const certificate = await createSelfSignedCertificate();
const servers: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function smtp(options: SmtpFakeOptions = {}): Promise<FakeSmtpServer> {
  const server = await startSmtpFake(options);
  servers.push(server);
  return server;
}

function config(server: { port: number }, overrides: Partial<EmailConfig> = {}): EmailConfig {
  return emailConfig.parse({
    to: 'ops@acme.test',
    from: { address: 'alerts@acme.test', name: 'Acme alerts' },
    host: '127.0.0.1',
    port: server.port,
    secure: 'none',
    ...overrides,
  });
}

function ctx(signal = AbortSignal.timeout(15_000), guard: TargetGuard = ANY_TARGET): SendContext {
  return { signal, now: Date.now(), attempt: 0, guard };
}

describe('the email config', () => {
  it('takes one address or up to 20, and fills in the defaults', () => {
    const parsed = emailConfig.parse({ to: 'a@b.test', from: 'c@d.test', host: 'smtp.test' });
    expect(parsed).toEqual({
      to: 'a@b.test',
      from: 'c@d.test',
      host: 'smtp.test',
      secure: 'starttls',
      tlsRejectUnauthorized: true,
    });
    const many = Array.from({ length: 20 }, (_, i) => `u${i}@b.test`);
    expect(emailConfig.safeParse({ to: many, from: 'c@d.test', host: 'h' }).success).toBe(true);
    expect(emailConfig.safeParse({ to: [...many, 'x@b.test'], from: 'c@d.test', host: 'h' }).success).toBe(false);
    expect(emailConfig.safeParse({ to: ['not an address'], from: 'c@d.test', host: 'h' }).success).toBe(false);
    expect(emailConfig.safeParse({ to: 'a@b.test', from: 'c@d.test', host: 'h', password: 'p' }).success).toBe(false);
    expect(emailConfig.safeParse({ to: 'a@b.test', from: 'c@d.test', host: 'h', extra: 1 }).success).toBe(false);
  });

  it('names its secret and target fields', () => {
    expect(emailChannel.secrets).toEqual(['password']);
    expect(emailChannel.targets).toEqual(['host', 'port', 'to']);
  });
});

describe('the message', () => {
  it('derives a stable Message-ID from the event id, hashing ids with odd characters', () => {
    expect(messageId('evt_1', 'alerts@Acme.test')).toBe('<warden.evt_1@acme.test>');
    expect(messageId('a b>c', 'x@y.test')).toMatch(/^<warden\.[0-9a-f]{40}@y\.test>$/);
  });

  it('adds one-click List-Unsubscribe only when asked, and only for web URLs', () => {
    const cfg = emailConfig.parse({ to: 'a@b.test', from: 'c@d.test', host: 'h' });
    expect(buildEmail(event, cfg).headers['List-Unsubscribe-Post']).toBeUndefined();
    expect(buildEmail(event, cfg, { unsubscribeUrl: 'javascript:alert(1)' }).list).toBeUndefined();
    const mail = buildEmail(event, cfg, { unsubscribeUrl: 'https://status.acme.test/u/tok' });
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain('Unsubscribe: https://status.acme.test/u/tok');
  });
});

describe('sending through a real SMTP server', () => {
  it('delivers a text and an escaped HTML part with the headers', async () => {
    const server = await smtp();
    const outcome = await emailChannel.send(
      event,
      config(server, { to: ['ops@acme.test', 'oncall@acme.test'] }),
      ctx(),
    );
    expect(outcome).toMatchObject({ kind: 'sent', status: 250 });
    expect(outcome.kind === 'sent' && outcome.answer).toContain('Message queued as test');
    const [received] = server.messages;
    expect(received?.to).toEqual(['ops@acme.test', 'oncall@acme.test']);
    expect(received?.from).toBe('alerts@acme.test');
    const mail = await received!.parse();
    expect(mail.subject).toBe('[DOWN] Lobby <script>alert(1)</script> is down');
    expect(mail.from?.value).toEqual([{ address: 'alerts@acme.test', name: 'Acme alerts' }]);
    expect(mail.messageId).toBe('<warden.evt_01HZX4K9Q2@acme.test>');
    expect(mail.date?.getTime()).toBe(event.at);
    expect(mail.headers.get('x-warden-event')).toBe('monitor.down');
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail.headers.has('list-unsubscribe')).toBe(false);
    expect(mail.text).toContain('Monitor: <script>alert(1)</script> Lobby');
    expect(mail.text).toContain('Players: 12 / 100 online');
    expect(mail.text).toContain('https://status.acme.test/main');
    const html = mail.html || '';
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; Lobby');
    expect(html).toContain('ECONNREFUSED 10.0.0.5:25565 &#38; &#34;more&#34;');
    expect(html).toContain('href="https://status.acme.test/main"');
    expect(html).toMatch(/border-left:4px solid #e74c3c[^>]*>DOWN · /);
    expect(html).toContain('12 / 100 online');
  });

  it('shows the downtime of a recovery', async () => {
    const server = await smtp();
    const recovered: NotificationEvent = {
      ...event,
      id: 'evt_2',
      kind: 'monitor.recovered',
      severity: 'ok',
      title: 'Lobby is back up',
      reason: null,
      monitor: { ...event.monitor!, state: 'up', previousState: 'down', downtimeMs: 252_000, players: null },
    };
    expect((await emailChannel.send(recovered, config(server), ctx())).kind).toBe('sent');
    const mail = await server.messages[0]!.parse();
    expect(mail.subject).toBe('[UP] Lobby is back up');
    expect(mail.text).toContain('Downtime: 4 min 12 s');
    expect(mail.html).toContain('4 min 12 s');
  });

  it('sends the same Message-ID when the same event is sent again', async () => {
    const server = await smtp();
    await emailChannel.send(event, config(server), ctx());
    await emailChannel.send(event, config(server), ctx());
    const [first, second] = await Promise.all(server.messages.map((message) => message.parse()));
    expect(first?.messageId).toBeDefined();
    expect(second?.messageId).toBe(first?.messageId);
  });

  it('carries List-Unsubscribe for page subscribers', async () => {
    const server = await smtp();
    const nodemailer = (await import('nodemailer')).default;
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: server.port, ignoreTLS: true });
    await transport.sendMail(
      buildEmail(event, config(server), { unsubscribeUrl: 'https://status.acme.test/unsubscribe?t=abc' }),
    );
    transport.close();
    const mail = await server.messages[0]!.parse();
    const lines = Object.fromEntries(mail.headerLines.map((line) => [line.key, line.line]));
    expect(lines['list-unsubscribe']).toBe('List-Unsubscribe: <https://status.acme.test/unsubscribe?t=abc>');
    expect(lines['list-unsubscribe-post']).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  });

  it('logs in with AUTH PLAIN or LOGIN, and a wrong password is dead', async () => {
    const server = await smtp({ auth: { username: 'warden', password: 's3cret' } });
    expect(
      (await emailChannel.send(event, config(server, { username: 'warden', password: 's3cret' }), ctx())).kind,
    ).toBe('sent');
    expect(server.messages[0]?.user).toBe('warden');
    const wrong = await emailChannel.send(event, config(server, { username: 'warden', password: 'nope' }), ctx());
    expect(wrong).toMatchObject({ kind: 'dead', status: 535 });
    expect(wrong.kind === 'dead' && wrong.answer).toContain('535');
    expect(server.messages).toHaveLength(1);
  });

  it('a recipient rejected with 550 is dead, with the reply kept', async () => {
    const server = await smtp({ rejectRecipients: { code: 550, message: 'No such user here' } });
    const outcome = await emailChannel.send(event, config(server), ctx());
    expect(outcome).toMatchObject({ kind: 'dead', status: 550 });
    expect(outcome.kind === 'dead' && outcome.answer).toContain('No such user here');
  });

  it('a recipient deferred with 451 is retried', async () => {
    const server = await smtp({ rejectRecipients: { code: 451, message: 'Try again later' } });
    const outcome = await emailChannel.send(event, config(server), ctx());
    expect(outcome).toMatchObject({ kind: 'retry', status: 451 });
    expect(outcome.kind === 'retry' && outcome.answer).toContain('Try again later');
  });

  it('a refused connection is retried', async () => {
    const server = await smtp();
    const port = server.port;
    await servers.splice(0)[0]!.close();
    expect(await emailChannel.send(event, config({ port }), ctx())).toEqual({
      kind: 'retry',
      status: null,
      error: 'connection refused',
    });
  });

  it("reaches the channel's own host only where the organization's target policy allows, by address or by name", async () => {
    const server = await smtp();
    for (const host of ['127.0.0.1', 'localhost']) {
      const outcome = await emailChannel.send(event, config(server, { host }), ctx(undefined, PUBLIC_TARGETS_ONLY));
      expect(outcome).toEqual({
        kind: 'dead',
        status: null,
        error: expect.stringMatching(
          /^refused by policy: (127\.0\.0\.1|::1) is a loopback address; this organization may reach public/,
        ),
      });
    }
    expect(server.messages).toHaveLength(0);
    expect(server.connections()).toBe(0);
  });

  it('a server that never answers is retried once the signal ends the attempt, its connection closed', async () => {
    const hole: BlackHole = await startTcpBlackHole();
    servers.push(hole);
    const started = performance.now();
    const outcome = await emailChannel.send(event, config(hole), ctx(AbortSignal.timeout(400)));
    expect(outcome).toMatchObject({ kind: 'retry', status: null, error: 'timed out' });
    expect(performance.now() - started).toBeLessThan(3000);
    await expect.poll(() => hole.openConnections()).toBe(0);
  });

  it('an already aborted signal sends nothing', async () => {
    const server = await smtp();
    const controller = new AbortController();
    controller.abort();
    expect((await emailChannel.send(event, config(server), ctx(controller.signal))).kind).toBe('retry');
    expect(server.messages).toHaveLength(0);
  });
});

describe('sending over TLS', () => {
  it('upgrades with STARTTLS and authenticates', async () => {
    const server = await smtp({ tls: certificate, auth: { username: 'warden', password: 's3cret' } });
    const outcome = await emailChannel.send(
      event,
      config(server, { secure: 'starttls', tlsRejectUnauthorized: false, username: 'warden', password: 's3cret' }),
      ctx(),
    );
    expect(outcome.kind).toBe('sent');
    expect(server.messages[0]).toMatchObject({ secure: true, user: 'warden' });
  });

  it('speaks implicit TLS', async () => {
    const server = await smtp({ tls: certificate, implicitTls: true });
    expect(
      (await emailChannel.send(event, config(server, { secure: 'tls', tlsRejectUnauthorized: false }), ctx())).kind,
    ).toBe('sent');
    expect(server.messages[0]?.secure).toBe(true);
  });

  it('refuses a self-signed certificate unless told otherwise', async () => {
    const server = await smtp({ tls: certificate });
    const outcome = await emailChannel.send(event, config(server, { secure: 'starttls' }), ctx());
    expect(outcome.kind).not.toBe('sent');
    expect(server.messages).toHaveLength(0);
  });

  it('does not send in plain text when STARTTLS is required and not offered', async () => {
    const server = await smtp();
    const outcome = await emailChannel.send(event, config(server, { secure: 'starttls' }), ctx());
    expect(outcome.kind).toBe('dead');
    expect(server.messages).toHaveLength(0);
  });
});
