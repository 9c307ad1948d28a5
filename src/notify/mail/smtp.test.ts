// The system SMTP server: WARDEN_SMTP_URL and WARDEN_SMTP_FROM (the password never in a message), warden.yaml's
// `smtp:`, and an email channel without a host of its own sending through it (STARTTLS when offered, AUTH).
import { afterEach, describe, expect, it } from 'vitest';
import { createSelfSignedCertificate } from '../../../test/fakes/http-fakes.js';
import { INCIDENT_EVENT } from '../../../test/fakes/notify-receivers.js';
import { type FakeSmtpServer, type SmtpFakeOptions, startSmtpFake } from '../../../test/fakes/smtp-server.js';
import { parseConfigText } from '../../config/load.js';
import { readSettings } from '../../config/settings.js';
import { PUBLIC_TARGETS_ONLY } from '../../net/target-guard.js';
import { emailChannel, emailConfig } from '../channels/email.js';
import { describeSmtp, parseSmtpUrl, type SmtpSettings } from './smtp.js';

const certificate = await createSelfSignedCertificate();
const servers: FakeSmtpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function smtp(options: SmtpFakeOptions = {}): Promise<FakeSmtpServer> {
  const server = await startSmtpFake(options);
  servers.push(server);
  return server;
}
const send = (config: unknown, system: SmtpSettings | undefined) =>
  emailChannel.send(INCIDENT_EVENT, emailConfig.parse(config), {
    signal: AbortSignal.timeout(10_000),
    now: Date.now(),
    attempt: 0,
    // The system server is the operator's: reached as it is, whatever the organization's target policy.
    guard: PUBLIC_TARGETS_ONLY,
    smtp: system,
  });

describe('WARDEN_SMTP_URL', () => {
  it('reads smtp:// (STARTTLS when offered) and smtps:// (implicit TLS) with percent-encoded credentials', () => {
    expect(parseSmtpUrl('smtp://warden%40acme.test:p%40ss%3Aword@mail.acme.test:2525', 'status@acme.test')).toEqual({
      host: 'mail.acme.test',
      port: 2525,
      secure: 'auto',
      username: 'warden@acme.test',
      password: 'p@ss:word',
      tlsRejectUnauthorized: true,
      from: 'status@acme.test',
    });
    expect(parseSmtpUrl('smtps://mail.acme.test', 'a@b.test')).toMatchObject({
      secure: 'tls',
      port: undefined,
      username: undefined,
    });
    expect(parseSmtpUrl('smtp://[::1]:25?secure=none&tlsRejectUnauthorized=false', 'a@b.test')).toMatchObject({
      host: '::1',
      secure: 'none',
      tlsRejectUnauthorized: false,
    });
    expect(() => parseSmtpUrl('https://mail.acme.test', 'a@b.test')).toThrow(/smtp:\/\/ or smtps:\/\//);
    expect(describeSmtp(parseSmtpUrl('smtp://u:secret@h:587', 'a@b.test'))).toBe('smtp://u@h:587 (auto)');
  });

  it('needs WARDEN_SMTP_FROM with it, and never repeats the password in an error', () => {
    expect(readSettings({}).smtp).toBeUndefined();
    expect(
      readSettings({ WARDEN_SMTP_URL: 'smtp://u:hunter2@h', WARDEN_SMTP_FROM: 'Acme status <status@acme.test>' }).smtp,
    ).toMatchObject({
      host: 'h',
      password: 'hunter2',
      from: { address: 'status@acme.test', name: 'Acme status' },
    });
    const failure = (env: Record<string, string>) => {
      try {
        readSettings(env);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    };
    expect(failure({ WARDEN_SMTP_URL: 'smtp://u:hunter2@h' })).toContain('WARDEN_SMTP_FROM');
    expect(failure({ WARDEN_SMTP_FROM: 'status@acme.test' })).toContain('WARDEN_SMTP_URL');
    const bad = failure({ WARDEN_SMTP_URL: 'ftp://u:hunter2@h', WARDEN_SMTP_FROM: 'not an address' });
    expect(bad).toContain('WARDEN_SMTP_URL');
    expect(bad).toContain('WARDEN_SMTP_FROM');
    expect(bad).not.toContain('hunter2');
  });

  it('is also read from smtp: in warden.yaml', () => {
    const file = parseConfigText(
      'organization: { name: T }\nsmtp: { host: mail.test, port: 2525, username: u, password: "${PW}", from: status@t.test }\n',
      'w.yaml',
      { PW: 'pw' },
    );
    expect(file.smtp).toEqual({
      host: 'mail.test',
      port: 2525,
      secure: 'auto',
      username: 'u',
      password: 'pw',
      tlsRejectUnauthorized: true,
      from: 'status@t.test',
    });
  });
});

describe('an email channel without a host', () => {
  it('sends through the system server with its sender, and is dead without one', async () => {
    const server = await smtp({ auth: { username: 'warden', password: 's3cret' } });
    const system = parseSmtpUrl(`smtp://warden:s3cret@127.0.0.1:${server.port}`, {
      address: 'status@acme.test',
      name: 'Acme',
    });
    expect(emailConfig.safeParse({ to: 'ops@acme.test', host: 'smtp.acme.test' }).success).toBe(false);
    expect(await send({ to: 'ops@acme.test' }, system)).toMatchObject({ kind: 'sent', status: 250 });
    expect(server.messages[0]).toMatchObject({ from: 'status@acme.test', to: ['ops@acme.test'], user: 'warden' });
    expect(await send({ to: 'ops@acme.test' }, undefined)).toMatchObject({
      kind: 'dead',
      error: expect.stringContaining('WARDEN_SMTP_URL'),
    });
  });

  it("never sends as the channel's from: that becomes Reply-To, and the subject names the organization", async () => {
    const server = await smtp();
    const system = parseSmtpUrl(`smtp://127.0.0.1:${server.port}?secure=none`, {
      address: 'status@operator.test',
      name: 'Operator status',
    });
    const spoofed = {
      to: ['victim@example.test', 'other@example.test'],
      from: { address: 'security@operator.test', name: 'Operator Security' },
    };
    expect(await send(spoofed, system)).toMatchObject({ kind: 'sent' });
    const [received] = server.messages;
    expect(received).toMatchObject({ from: 'status@operator.test', to: ['victim@example.test', 'other@example.test'] });
    const mail = await received!.parse();
    expect(mail.from?.value).toEqual([{ address: 'status@operator.test', name: 'Operator status' }]);
    expect(mail.replyTo?.value).toEqual([{ address: 'security@operator.test', name: 'Operator Security' }]);
    expect(mail.subject).toBe('[Warden · Acme Games] [INCIDENT] Incident: Login queue delays');
    expect(mail.text).toContain(
      'Warden sent this notification for the organization "Acme Games", which wrote what it says.',
    );
    expect(mail.html).toContain('which wrote what it says.');
    expect(mail.messageId).toMatch(/@operator\.test>$/);
  });

  it('mails each recipient with an unsubscribe link on its own, the others together', async () => {
    const server = await smtp();
    const system = parseSmtpUrl(`smtp://127.0.0.1:${server.port}?secure=none`, 'status@operator.test');
    const recipients = [
      { address: 'a@example.test', unsubscribeUrl: 'https://warden.test/notifications/unsubscribe?token=a' },
      { address: 'b@example.test', unsubscribeUrl: 'https://warden.test/notifications/unsubscribe?token=b' },
      { address: 'c@example.test' },
    ];
    const config = emailConfig.parse({
      to: ['a@example.test', 'b@example.test', 'c@example.test', 'skipped@example.test'],
    });
    const outcome = await emailChannel.send(INCIDENT_EVENT, config, {
      signal: AbortSignal.timeout(10_000),
      now: Date.now(),
      attempt: 0,
      guard: PUBLIC_TARGETS_ONLY,
      smtp: system,
      recipients,
    });
    expect(outcome).toMatchObject({ kind: 'sent' });
    expect(server.messages.map((m) => m.to)).toEqual([['c@example.test'], ['a@example.test'], ['b@example.test']]);
    const [together, a, b] = await Promise.all(server.messages.map((m) => m.parse()));
    expect(together?.headers.has('list-unsubscribe')).toBe(false);
    const unsubscribeOf = (mail: typeof a) => mail?.headerLines.find((line) => line.key === 'list-unsubscribe')?.line;
    expect(unsubscribeOf(a)).toBe('List-Unsubscribe: <https://warden.test/notifications/unsubscribe?token=a>');
    expect(unsubscribeOf(b)).toBe('List-Unsubscribe: <https://warden.test/notifications/unsubscribe?token=b>');
    expect(a?.headerLines.find((line) => line.key === 'list-unsubscribe-post')?.line).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
    expect(new Set([together?.messageId, a?.messageId, b?.messageId]).size).toBe(3);
  });

  it('upgrades with STARTTLS when the server offers it (smtp://)', async () => {
    const server = await smtp({ tls: certificate });
    const system = parseSmtpUrl(`smtp://127.0.0.1:${server.port}?tlsRejectUnauthorized=false`, 'status@acme.test');
    expect(await send({ to: 'ops@acme.test' }, system)).toMatchObject({ kind: 'sent' });
    expect(server.messages[0]?.secure).toBe(true);
  });
});
