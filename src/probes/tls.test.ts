// The tls monitor against real TLS servers on the loopback interface, with certificates made for each case at test time.
import { createServer as createHttpServer } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTcpBlackHole } from '../../test/fakes/black-holes.js';
import { certificateAuthority, serverCertificate } from '../../test/fakes/certificates.js';
import type { Certificate } from '../../test/fakes/http-fakes.js';
import {
  checkAgainst,
  closedTcpPort,
  leavingNothingOpen,
  probeDirectly,
  runThrough,
} from '../../test/fakes/probe-runs.js';
import {
  startHandshakeCloser,
  startHandshakeStaller,
  startTlsServer,
  type TlsFake,
} from '../../test/fakes/tls-servers.js';
import { expiresIn, expiryVerdict } from '../net/certificates.js';
import { pemCertificates, tls, tlsConfig } from './tls.js';

let ca: Certificate;
beforeAll(async () => {
  ca = await certificateAuthority();
});

const check = (config: Record<string, unknown>, timeoutMs = 1500) => probeDirectly(tls, config, timeoutMs);
/** A server with a certificate made from `options`, closed after the check, which must leave nothing open. */
async function checkServer(certificate: Certificate, config: Record<string, unknown>, timeoutMs = 1500) {
  const server = await startTlsServer(certificate);
  const { result } = await checkAgainst(server, tls, { host: server.host, port: server.port, ...config }, timeoutMs);
  return { result, server };
}
const dateOf = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('tls config', () => {
  it('defaults to port 443 and a 14-day warning, and reads a CA pasted into one line', () => {
    expect(tlsConfig.parse({ host: 'mail.example.com' })).toEqual({
      host: 'mail.example.com',
      port: 443,
      certExpiryDays: 14,
    });
    const oneLine = ca.cert.replace(/\n/g, ' ');
    expect(tlsConfig.safeParse({ host: 'panel.example.com', ca: oneLine }).success).toBe(true);
    expect(pemCertificates(oneLine)).toEqual(pemCertificates(ca.cert));
    // A text input drops the line breaks altogether.
    expect(pemCertificates(ca.cert.replace(/\n/g, ''))).toEqual(pemCertificates(ca.cert));
  });

  it('refuses what cannot work, in words', () => {
    const problem = (config: Record<string, unknown>) => tlsConfig.safeParse(config).error?.issues[0]?.message;
    expect(problem({ host: 'x.example', servername: '10.0.0.1' })).toBe('expected a host name, not an IP address');
    expect(problem({ host: 'x.example', ca: 'not a certificate' })).toMatch(
      /^expected one or more certificates in PEM form/,
    );
    expect(problem({ host: 'x.example', ca: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' })).toMatch(
      /^expected one or more certificates/,
    );
    expect(problem({ host: 'x.example', certExpiryDays: 366 })).toBe('expected a whole number of days from 0 to 365');
    expect(problem({ host: 'x.example', certExpiryDays: 1.5 })).toBe('expected a whole number of days from 0 to 365');
  });
});

describe('certificate expiry wording', () => {
  it('says today, 1 day, and N days', () => {
    expect(expiresIn(0)).toBe('expires today');
    expect(expiresIn(1)).toBe('expires in 1 day');
    expect(expiresIn(5)).toBe('expires in 5 days');
  });

  it('warns below the threshold only, never at 0, and fails once expired', () => {
    const expiry = (days: number) => ({ daysRemaining: days, validTo: '2026-12-01T10:00:00.000Z' });
    expect(expiryVerdict(expiry(13), 14)).toEqual({ warning: 'certificate expires in 13 days' });
    expect(expiryVerdict(expiry(14), 14)).toEqual({ note: 'certificate valid for 14 more days' });
    expect(expiryVerdict(expiry(0), 1)).toEqual({ warning: 'certificate expires today' });
    expect(expiryVerdict(expiry(0), 0)).toEqual({ note: 'certificate expires today' });
    expect(expiryVerdict(expiry(1), 0)).toEqual({ note: 'certificate valid for 1 more day' });
    expect(expiryVerdict(expiry(-1), 0)).toEqual({ failure: 'the TLS certificate expired on 2026-12-01' });
  });
});

describe('tls probe, a certificate the probe trusts', () => {
  it('is up with a valid chain, recording issuer, subject, protocol and expiry; latency is the handshake', async () => {
    const { result, server } = await checkServer(await serverCertificate({ issuer: ca, expiresInDays: 90 }), {
      servername: 'localhost',
      ca: ca.cert,
    });
    expect(result).toMatchObject({ ok: true, message: 'TLSv1.3, certificate valid for 90 more days' });
    expect(result.degraded).toBeUndefined();
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.data).toEqual({
      tlsDaysRemaining: 90,
      tlsValidTo: expect.any(String),
      tlsIssuer: 'Warden Test CA (Warden Tests)',
      tlsSubject: 'localhost',
      tlsProtocol: 'TLSv1.3',
    });
    expect(
      Math.abs(Date.parse(String(result.data?.tlsValidTo)) - (Date.now() + 90 * 86_400_000 + 3_600_000)),
    ).toBeLessThan(60_000);
    expect(server.serverNames).toEqual(['localhost']);
  });

  it('checks an IP address against the certificate and sends no server name for it', async () => {
    const { result, server } = await checkServer(await serverCertificate({ issuer: ca }), { ca: ca.cert });
    expect(result).toMatchObject({ ok: true });
    expect(server.connections()).toBe(1);
    expect(server.serverNames).toEqual([]);
  });

  it('shows degraded when the certificate expires in fewer days than certExpiryDays', async () => {
    const certificate = await serverCertificate({ issuer: ca, expiresInDays: 5 });
    const server = await startTlsServer(certificate);
    try {
      const base = { host: server.host, port: server.port, ca: ca.cert };
      expect(await check(base)).toMatchObject({
        ok: true,
        degraded: true,
        message: 'TLSv1.3, certificate expires in 5 days',
        data: { tlsDaysRemaining: 5 },
      });
      expect(await check({ ...base, certExpiryDays: 5 })).toMatchObject({
        ok: true,
        message: 'TLSv1.3, certificate valid for 5 more days',
      });
      const off = await check({ ...base, certExpiryDays: 0 });
      expect(off).toMatchObject({ ok: true, message: 'TLSv1.3, certificate valid for 5 more days' });
      expect(off.degraded).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('says "expires in 1 day" for a certificate with a day left', async () => {
    const { result } = await checkServer(await serverCertificate({ issuer: ca, expiresInDays: 1 }), { ca: ca.cert });
    expect(result).toMatchObject({ ok: true, degraded: true, message: 'TLSv1.3, certificate expires in 1 day' });
  });

  it('is down once the certificate expired, naming the day, with the expiry still recorded', async () => {
    const { result } = await checkServer(await serverCertificate({ issuer: ca, expiresInDays: -3 }), {
      ca: ca.cert,
      certExpiryDays: 0,
    });
    expect(result).toMatchObject({ ok: false, data: { tlsDaysRemaining: -3 } });
    expect(result.error).toBe(`the TLS certificate expired on ${String(result.data?.tlsValidTo).slice(0, 10)}`);
    expect(result.error).toMatch(new RegExp(`^the TLS certificate expired on (${dateOf(-3)}|${dateOf(-2)})$`));
  });

  it('is down for a certificate not valid yet', async () => {
    const { result } = await checkServer(await serverCertificate({ issuer: ca, validInDays: 2 }), { ca: ca.cert });
    expect(result).toMatchObject({ ok: false, error: `the TLS certificate is not valid until ${dateOf(2)}` });
  });

  it('is down when the certificate is for another name, saying which names it has', async () => {
    const { result } = await checkServer(await serverCertificate({ issuer: ca, names: ['other.example'] }), {
      servername: 'localhost',
      ca: ca.cert,
    });
    expect(result).toMatchObject({
      ok: false,
      error:
        'the TLS certificate does not match the host name: it is for DNS:other.example, not localhost (set servername if the server answers to another name)',
      data: { tlsSubject: 'other.example' },
    });
  });
});

describe('tls probe, a certificate nobody told the probe to trust', () => {
  it('says a self-signed certificate is self-signed, and accepts it given as ca', async () => {
    const certificate = await serverCertificate();
    const { result } = await checkServer(certificate, {});
    expect(result).toMatchObject({
      ok: false,
      error: 'the TLS certificate is self-signed (give it as ca to trust it)',
      data: { tlsIssuer: 'localhost' },
    });
    expect((await checkServer(certificate, { ca: certificate.cert })).result).toMatchObject({ ok: true });
  });

  it('names the unknown authority of a private CA', async () => {
    const { result } = await checkServer(await serverCertificate({ issuer: ca }), {});
    expect(result).toMatchObject({
      ok: false,
      error:
        'the TLS certificate chain ends in an untrusted self-signed certificate (issuer Warden Test CA (Warden Tests); a private CA? give its certificate as ca)',
    });
  });

  it('is down for an expired self-signed certificate, named as expired', async () => {
    const { result } = await checkServer(await serverCertificate({ expiresInDays: -1 }), {});
    expect(result).toMatchObject({
      ok: false,
      error: `the TLS certificate expired on ${String(result.data?.tlsValidTo).slice(0, 10)}`,
      data: { tlsDaysRemaining: -1 },
    });
  });

  it('refuses another CA than the one given', async () => {
    const other = await certificateAuthority('Other CA');
    const { result } = await checkServer(await serverCertificate({ issuer: ca }), { ca: other.cert });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^the TLS certificate chain ends in an untrusted self-signed certificate/);
  });
});

describe('tls probe, servers that fail the handshake', () => {
  it('says connection refused on a closed port', async () => {
    expect(await check({ host: '127.0.0.1', port: await closedTcpPort() })).toEqual({
      ok: false,
      error: 'connection refused',
    });
  });

  it('times out on a server that accepts the connection and never answers the hello', async () => {
    const hole = await startTcpBlackHole();
    const { result } = await checkAgainst(hole, tls, { host: hole.host, port: hole.port }, 300);
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s' });
  });

  it('says the server hung up when it closes mid-handshake', async () => {
    const closer = await startHandshakeCloser();
    const { result } = await checkAgainst(closer, tls, { host: closer.host, port: closer.port }, 1500);
    expect(result).toEqual({ ok: false, error: 'the server closed the connection during the TLS handshake' });
  });

  it('times out, leaving nothing open, when the server stalls mid-record', async () => {
    const staller = await startHandshakeStaller();
    const started = performance.now();
    const { result } = await checkAgainst(staller, tls, { host: staller.host, port: staller.port }, 300);
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('stops at once at a certificate chain over 100 KiB', async () => {
    const huge = await serverCertificate({ issuer: ca, chainPadding: 400 });
    expect(huge.cert.length * 0.75, 'DER bytes of the chain').toBeGreaterThan(100 * 1024);
    const started = performance.now();
    const { result } = await checkServer(huge, { ca: ca.cert }, 5000);
    expect(result).toEqual({
      ok: false,
      error: 'the TLS handshake is larger than allowed (a certificate chain over 100 KiB?)',
    });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('says a plain-text port does not speak TLS', async () => {
    const site = createHttpServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const fake = { close: () => new Promise<void>((resolve) => site.close(() => resolve())) };
    const { result } = await checkAgainst(
      fake,
      tls,
      { host: '127.0.0.1', port: (site.address() as { port: number }).port },
      1500,
    );
    expect(result).toEqual({
      ok: false,
      error: 'the server did not answer in TLS (a plain-text port, or one that starts TLS later with STARTTLS?)',
    });
  });

  it('runs through runProbe, config checked first', async () => {
    expect(await runThrough(tls, { host: '127.0.0.1', port: 70000 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^invalid config: /),
    });
    const server: TlsFake = await startTlsServer(await serverCertificate({ issuer: ca }));
    try {
      expect(
        await leavingNothingOpen(() => runThrough(tls, { host: server.host, port: server.port, ca: ca.cert })),
      ).toMatchObject({ ok: true });
    } finally {
      await server.close();
    }
  });
});
