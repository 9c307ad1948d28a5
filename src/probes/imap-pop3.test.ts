// The imap and pop3 monitors against servers that speak what Dovecot speaks, byte for byte: greetings, STARTTLS and
// STLS, TLS from the first byte, refusals.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { certificateAuthority, serverCertificate } from '../../test/fakes/certificates.js';
import type { Certificate } from '../../test/fakes/http-fakes.js';
import { checkAgainst, probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import {
  dovecotImap,
  dovecotPop3,
  IMAP_GREETING,
  type LineServer,
  type LineServerOptions,
  startLineServer,
  startScriptedTcp,
} from '../../test/fakes/service-servers.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { imap } from './imap.js';
import { pop3 } from './pop3.js';

let authority: Certificate;
let certificate: Certificate;
beforeAll(async () => {
  authority = await certificateAuthority();
  certificate = await serverCertificate({ issuer: authority, expiresInDays: 45 });
});

const servers: LineServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function serving(options: LineServerOptions): Promise<LineServer> {
  const server = await startLineServer(options);
  servers.push(server);
  return server;
}

describe('imap probe', () => {
  it('reads the greeting, starts TLS with a1 STARTTLS and reports the certificate', async () => {
    const server = await startLineServer(dovecotImap(certificate));
    const { result } = await checkAgainst(
      server,
      imap,
      { host: '127.0.0.1', port: server.port, ca: authority.cert },
      3000,
    );
    expect(result).toMatchObject({
      ok: true,
      message: `${IMAP_GREETING}; TLSv1.3, certificate valid for 45 more days`,
      data: { security: 'starttls', tlsDaysRemaining: 45 },
    });
    expect(server.lines()).toEqual(['a1 STARTTLS', '(tls) a2 LOGOUT']);
  });

  it('speaks TLS from the first byte with security: tls', async () => {
    const server = await serving({ ...dovecotImap(certificate), implicitTls: true });
    expect(
      await probeDirectly(imap, { host: '127.0.0.1', port: server.port, security: 'tls', ca: authority.cert }, 3000),
    ).toMatchObject({ ok: true, data: { security: 'tls', tlsDaysRemaining: 45 } });
  });

  it('says when STARTTLS is refused, the server says BYE, or it speaks another protocol', async () => {
    const plain = await serving(dovecotImap());
    expect(await probeDirectly(imap, { host: '127.0.0.1', port: plain.port })).toEqual({
      ok: false,
      error: "STARTTLS refused: a1 BAD TLS support isn't enabled.",
    });
    expect(await probeDirectly(imap, { host: '127.0.0.1', port: plain.port, security: 'none' })).toMatchObject({
      ok: true,
      message: IMAP_GREETING,
    });
    const full = await serving({ greeting: '* BYE Too many connections\r\n', answer: () => undefined });
    expect(await probeDirectly(imap, { host: '127.0.0.1', port: full.port })).toMatchObject({
      ok: false,
      error: 'the server turned the connection away: * BYE Too many connections',
    });
    const pop = await serving(dovecotPop3());
    expect(await probeDirectly(imap, { host: '127.0.0.1', port: pop.port })).toMatchObject({
      ok: false,
      error: 'unexpected response: "+OK Dovecot (Ubuntu) ready." is not an IMAP greeting',
    });
  });

  it('times out on a server that accepts and never greets', async () => {
    const silent = await startScriptedTcp(() => {});
    expect((await checkAgainst(silent, imap, { host: '127.0.0.1', port: silent.port }, 300)).result).toEqual({
      ok: false,
      error: 'timed out after 0.3 s',
    });
  });

  it('refuses a private target under deny without connecting', async () => {
    const server = await serving(dovecotImap(certificate));
    const result = await runThrough(
      imap,
      { host: '127.0.0.1', port: server.port, security: 'tls' },
      1500,
      PUBLIC_TARGETS_ONLY,
    );
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address;/),
    });
    expect(server.connections()).toBe(0);
  });
});

describe('pop3 probe', () => {
  it('reads the greeting, starts TLS with STLS and reports the certificate', async () => {
    const server = await startLineServer(dovecotPop3(certificate));
    const { result } = await checkAgainst(
      server,
      pop3,
      { host: '127.0.0.1', port: server.port, ca: authority.cert, certExpiryDays: 60 },
      3000,
    );
    expect(result).toMatchObject({
      ok: true,
      degraded: true,
      message: '+OK Dovecot (Ubuntu) ready.; TLSv1.3, certificate expires in 45 days',
    });
    expect(server.lines()).toEqual(['STLS', '(tls) QUIT']);
  });

  it('speaks TLS from the first byte with security: tls, and names a certificate it cannot trust', async () => {
    const server = await serving({ ...dovecotPop3(certificate), implicitTls: true });
    expect(
      await probeDirectly(pop3, { host: '127.0.0.1', port: server.port, security: 'tls', ca: authority.cert }, 3000),
    ).toMatchObject({ ok: true, data: { security: 'tls' } });
    expect(await probeDirectly(pop3, { host: '127.0.0.1', port: server.port, security: 'tls' }, 3000)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^the TLS certificate /),
      data: { banner: '+OK Dovecot (Ubuntu) ready.', tlsDaysRemaining: 45 },
    });
  });

  it('says when STLS is refused or the server turns the connection away', async () => {
    const plain = await serving(dovecotPop3());
    expect(await probeDirectly(pop3, { host: '127.0.0.1', port: plain.port })).toEqual({
      ok: false,
      error: "STLS refused: -ERR TLS support isn't enabled.",
    });
    const busy = await serving({ greeting: '-ERR [SYS/TEMP] Server shutting down.\r\n', answer: () => undefined });
    expect(await probeDirectly(pop3, { host: '127.0.0.1', port: busy.port })).toMatchObject({
      ok: false,
      error: 'the server turned the connection away: -ERR [SYS/TEMP] Server shutting down.',
    });
  });

  it('talks TLS to a plain-text port only to be told so', async () => {
    const plain = await serving(dovecotPop3());
    expect(await probeDirectly(pop3, { host: '127.0.0.1', port: plain.port, security: 'tls' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^the server did not answer in TLS|^TLS handshake failed/),
    });
  });
});
