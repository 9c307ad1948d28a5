// The smtp monitor against a real SMTP server (the smtp-server package): STARTTLS, implicit TLS, certificates; and
// against scripted servers that refuse, flood, cheat on STARTTLS or say nothing.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { certificateAuthority, serverCertificate } from '../../test/fakes/certificates.js';
import type { Certificate } from '../../test/fakes/http-fakes.js';
import { checkAgainst, closedTcpPort, probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { flood, type LineServer, startLineServer, startScriptedTcp } from '../../test/fakes/service-servers.js';
import { type FakeSmtpServer, startSmtpFake } from '../../test/fakes/smtp-server.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { smtp } from './smtp.js';

let authority: Certificate;
let certificate: Certificate;
beforeAll(async () => {
  authority = await certificateAuthority();
  certificate = await serverCertificate({ issuer: authority, expiresInDays: 80 });
});

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function smtpServer(options: Parameters<typeof startSmtpFake>[0]): Promise<FakeSmtpServer> {
  const server = await startSmtpFake(options);
  servers.push(server);
  return server;
}
async function scripted(options: Parameters<typeof startLineServer>[0]): Promise<LineServer> {
  const server = await startLineServer(options);
  servers.push(server);
  return server;
}

/** What Postfix says, byte for byte, up to STARTTLS. */
const postfix = (starttls = true) => ({
  greeting: '220 mx.example.test ESMTP Postfix (Debian/GNU)\r\n',
  answer: (line: string) => {
    if (line.startsWith('EHLO '))
      return {
        reply: `250-mx.example.test\r\n250-PIPELINING\r\n250-SIZE 10240000\r\n${starttls ? '250-STARTTLS\r\n' : ''}250-ENHANCEDSTATUSCODES\r\n250 SMTPUTF8\r\n`,
      };
    if (line === 'STARTTLS') return { reply: '220 2.0.0 Ready to start TLS\r\n', thenTls: true };
    if (line === 'QUIT') return { reply: '221 2.0.0 Bye\r\n' };
    return undefined;
  },
});

describe('smtp probe', () => {
  it('reads the greeting, starts TLS and reports the certificate, against a real SMTP server', async () => {
    const server = await startSmtpFake({ tls: certificate });
    const { result } = await checkAgainst(
      server,
      smtp,
      { host: '127.0.0.1', port: server.port, ca: authority.cert },
      3000,
    );
    expect(result).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^220 \S+ ESMTP warden test relay; TLSv1\.3, certificate valid for 80 more days$/),
      data: {
        security: 'starttls',
        tlsDaysRemaining: 80,
        tlsIssuer: 'Warden Test CA (Warden Tests)',
        tlsProtocol: 'TLSv1.3',
      },
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('speaks TLS from the first byte with security: tls', async () => {
    const server = await smtpServer({ tls: certificate, implicitTls: true });
    expect(
      await probeDirectly(smtp, { host: '127.0.0.1', port: server.port, security: 'tls', ca: authority.cert }, 3000),
    ).toMatchObject({
      ok: true,
      data: { security: 'tls', tlsDaysRemaining: 80 },
    });
  });

  it('is degraded when the certificate expires within certExpiryDays, and down when it is not trusted', async () => {
    const server = await smtpServer({ tls: certificate });
    expect(
      await probeDirectly(smtp, { host: '127.0.0.1', port: server.port, ca: authority.cert, certExpiryDays: 90 }, 3000),
    ).toMatchObject({
      ok: true,
      degraded: true,
      message: expect.stringMatching(/; TLSv1\.3, certificate expires in 80 days$/),
    });
    expect(await probeDirectly(smtp, { host: '127.0.0.1', port: server.port }, 3000)).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^the TLS certificate was issued by an unknown authority|^the TLS certificate chain ends in an untrusted self-signed certificate/,
      ),
      data: { banner: expect.stringMatching(/^220 /), tlsDaysRemaining: 80 },
    });
  });

  it('sends EHLO and STARTTLS as Postfix expects them, and nothing in plain text after', async () => {
    const server = await scripted({ ...postfix(), tls: certificate });
    const result = await probeDirectly(smtp, { host: '127.0.0.1', port: server.port, ca: authority.cert }, 3000);
    expect(result).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^220 mx\.example\.test ESMTP Postfix \(Debian\/GNU\); TLSv1\.3/),
    });
    await expect.poll(() => server.lines()).toEqual(['EHLO [127.0.0.1]', 'STARTTLS', '(tls) QUIT']);
  });

  it('reads only the greeting with security: none', async () => {
    const server = await scripted(postfix(false));
    expect(await probeDirectly(smtp, { host: '127.0.0.1', port: server.port, security: 'none' })).toMatchObject({
      ok: true,
      message: '220 mx.example.test ESMTP Postfix (Debian/GNU)',
      data: { banner: '220 mx.example.test ESMTP Postfix (Debian/GNU)', security: 'none' },
    });
    await expect.poll(() => server.lines()).toEqual(['QUIT']);
  });

  it('says when STARTTLS is not offered, the server turns us away, or it is no SMTP server', async () => {
    const plain = await scripted(postfix(false));
    expect(await probeDirectly(smtp, { host: '127.0.0.1', port: plain.port })).toEqual({
      ok: false,
      error: 'the server does not offer STARTTLS (it is not in its EHLO reply)',
    });
    const busy = await scripted({
      greeting: '554 5.3.2 mx.example.test Service currently unavailable\r\n',
      answer: () => undefined,
    });
    expect(await probeDirectly(smtp, { host: '127.0.0.1', port: busy.port })).toMatchObject({
      ok: false,
      error: 'the server turned the connection away: 554 5.3.2 mx.example.test Service currently unavailable',
    });
    const ssh = await scripted({ greeting: 'SSH-2.0-OpenSSH_9.6p1\r\n', answer: () => undefined });
    expect(await probeDirectly(smtp, { host: '127.0.0.1', port: ssh.port })).toMatchObject({
      ok: false,
      error: 'unexpected response: "SSH-2.0-OpenSSH_9.6p1" is not an SMTP greeting',
    });
    expect(await probeDirectly(smtp, { host: '127.0.0.1', port: await closedTcpPort() })).toEqual({
      ok: false,
      error: 'connection refused',
    });
  });

  it('refuses a server that sends more after agreeing to STARTTLS (a command injection)', async () => {
    const server = await scripted({
      ...postfix(),
      answer: (line) =>
        line === 'STARTTLS' ? { reply: '220 Ready\r\n250 injected\r\n', thenTls: true } : postfix().answer(line),
      tls: certificate,
    });
    expect(await probeDirectly(smtp, { host: '127.0.0.1', port: server.port })).toEqual({
      ok: false,
      error: 'unexpected response: the server sent more after agreeing to STARTTLS',
    });
  });

  it('stops reading a greeting or a line that goes on past 4 KiB', async () => {
    const lines = await startScriptedTcp((socket) =>
      flood(socket, Buffer.from('220-spam spam spam spam spam spam spam\r\n'.repeat(100))),
    );
    expect((await checkAgainst(lines, smtp, { host: '127.0.0.1', port: lines.port }, 3000)).result).toEqual({
      ok: false,
      error: 'unexpected response: a reply longer than 4 KiB',
    });
    const endless = await startScriptedTcp((socket) => flood(socket, Buffer.alloc(64 * 1024, 'x')));
    expect((await checkAgainst(endless, smtp, { host: '127.0.0.1', port: endless.port }, 3000)).result).toEqual({
      ok: false,
      error: 'unexpected response: a line longer than 4 KiB',
    });
  });

  it('times out on a server that accepts and never greets', async () => {
    const silent = await startScriptedTcp(() => {});
    const { result, elapsedMs } = await checkAgainst(silent, smtp, { host: '127.0.0.1', port: silent.port }, 300);
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s' });
    expect(elapsedMs).toBeLessThan(800);
  });

  it('refuses a private target under deny, in plain text or TLS, without connecting', async () => {
    const server = await scripted(postfix());
    for (const security of ['starttls', 'tls', 'none']) {
      const result = await runThrough(
        smtp,
        { host: '127.0.0.1', port: server.port, security },
        1500,
        PUBLIC_TARGETS_ONLY,
      );
      expect(result).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address;/),
      });
    }
    expect(server.connections()).toBe(0);
  });

  it('names the field that is wrong', () => {
    const parsed = smtp.config.safeParse({ host: 'mx.example.test', security: 'ssl', certExpiryDays: 400 });
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['security', 'certExpiryDays']);
  });
});
