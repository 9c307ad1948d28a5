// Any TLS port (https, mail on 465, game panels, databases): the certificate chain, the host name and the expiry, judged
// from the handshake alone; nothing is sent or read after it.
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { z } from 'zod';
import { CERTIFICATE_ERRORS, certificateExpiry, expiryVerdict } from '../net/certificates.js';
import { bareHost } from '../net/hosts.js';
import { describeNetworkError } from '../net/network-error.js';
import { openTls } from '../net/socket-exchange.js';
import { probeOver } from './exchange.js';
import { certExpiryDays, host, port } from './fields.js';
import { defineProbe, type ProbeResult } from './probe.js';

/** Bounds of the `ca` field: a private CA's chain is a few certificates, not a trust store. */
export const TLS_CA_LIMITS = { chars: 64 * 1024, certificates: 20 } as const;
/** Longest name (issuer, subject, the certificate's names in a mismatch error) a result repeats from the certificate. */
const NAME_CHARS = 200;

const CA_MESSAGE = 'expected one or more certificates in PEM form (-----BEGIN CERTIFICATE----- …)';

export const tlsConfig = z
  .object({
    host: host(),
    port: port().default(443),
    servername: host()
      .refine((name) => isIP(bareHost(name)) === 0, { error: 'expected a host name, not an IP address' })
      .optional()
      .describe('The name asked for (SNI) and checked against the certificate; the host, unless it is an IP address.'),
    certExpiryDays: certExpiryDays(),
    ca: z
      .string()
      .max(TLS_CA_LIMITS.chars)
      .refine((text) => pemCertificates(text) !== null, { error: CA_MESSAGE })
      .optional()
      .describe(
        "Certificates (PEM) to trust instead of the public CAs: a private CA, or a self-signed server's own certificate.",
      ),
  })
  .strict();

export const tls = defineProbe({
  id: 'tls',
  label: 'TLS certificate',
  config: tlsConfig,
  probe: (config, ctx) => {
    const name = bareHost(config.host);
    const servername = config.servername ?? (isIP(name) === 0 ? name : undefined);
    const ca = config.ca === undefined ? undefined : (pemCertificates(config.ca) ?? undefined);
    // Verification is judged from the finished handshake rather than refused by it, so that a refused certificate is
    // still recorded (its expiry, its issuer) and the error can name the reason. OpenSSL bounds what a handshake may
    // read (a certificate list over 100 KiB fails at once); the timeout bounds how long.
    const open = () =>
      openTls(ctx, config.host, config.port, {
        rejectUnauthorized: false,
        ...(servername ? { servername } : {}),
        ...(ca ? { ca } : {}),
      });
    return probeOver(open, ctx, (socket, { finish }, elapsed) => {
      socket.once('secureConnect', () => finish(judgeHandshake(socket, config, servername ?? name, elapsed())));
      socket.once('error', (error) => finish({ ok: false, error: describeHandshakeError(error, ctx.timeoutMs) }));
    });
  },
});

/**
 * The verdict on a finished handshake: the certificate's dates, then the chain and the name, then the warning of
 * certExpiryDays. Mail monitors judge the handshake of STARTTLS or implicit TLS with it too.
 */
export function judgeHandshake(
  socket: TLSSocket,
  config: { certExpiryDays: number },
  identity: string,
  latencyMs: number,
): ProbeResult {
  const peer = socket.getPeerCertificate();
  const expiry = peer?.valid_to ? certificateExpiry(peer.valid_to) : undefined;
  if (!expiry) return { ok: false, error: 'the server sent no certificate' };
  const protocol = socket.getProtocol() ?? 'TLS';
  const data = {
    tlsDaysRemaining: expiry.daysRemaining,
    tlsValidTo: expiry.validTo,
    tlsIssuer: nameOf(peer.issuer),
    tlsSubject: nameOf(peer.subject) ?? clip(peer.subjectaltname ?? ''),
    tlsProtocol: protocol,
  };
  const verdict = expiryVerdict(expiry, config.certExpiryDays);
  // An expired or not yet valid certificate is named by its dates, whatever else is wrong with it.
  if ('failure' in verdict) return { ok: false, error: verdict.failure, data };
  const validFrom = Date.parse(peer.valid_from);
  if (validFrom > Date.now())
    return {
      ok: false,
      error: `the TLS certificate is not valid until ${new Date(validFrom).toISOString().slice(0, 10)}`,
      data,
    };
  if (!socket.authorized) return { ok: false, error: describeRefusal(socket.authorizationError, identity, peer), data };
  if ('warning' in verdict)
    return { ok: true, latencyMs, message: `${protocol}, ${verdict.warning}`, data, degraded: true };
  return { ok: true, latencyMs, message: `${protocol}, ${verdict.note}`, data };
}

/** Why the chain or the name was refused, with what the user can do about a private CA or a self-signed server. */
function describeRefusal(reason: Error | string | undefined, identity: string, peer: PeerCertificate): string {
  const code =
    typeof reason === 'string' ? reason : ((reason as { code?: string } | undefined)?.code ?? reason?.message ?? '');
  switch (code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `${CERTIFICATE_ERRORS[code]}: it is for ${clip(peer.subjectaltname || nameOf(peer.subject) || 'no name')}, not ${identity} (set servername if the server answers to another name)`;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return `${CERTIFICATE_ERRORS[code]} (give it as ca to trust it)`;
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return `${CERTIFICATE_ERRORS[code]} (issuer ${nameOf(peer.issuer) ?? 'unnamed'}; a private CA? give its certificate as ca)`;
    case 'CERT_HAS_EXPIRED':
      // The server's own certificate is within its dates (judge checked): one above it in the chain is not.
      return 'a certificate of the chain above the server’s own has expired';
    default:
      return CERTIFICATE_ERRORS[code] ?? `the TLS certificate was refused (${code || 'no reason given'})`;
  }
}

/** A failed handshake in words: the server hung up, spoke no TLS, sent too much, or refused our hello. */
export function describeHandshakeError(error: Error, timeoutMs: number): string {
  const { code, reason } = error as Error & { code?: string; reason?: string };
  // Node's words for a connection that ended (FIN or RST) before the handshake finished.
  if (code === 'ECONNRESET' && error.message.startsWith('Client network socket disconnected'))
    return 'the server closed the connection during the TLS handshake';
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG')
    return 'the server did not answer in TLS (a plain-text port, or one that starts TLS later with STARTTLS?)';
  if (code === 'ERR_SSL_EXCESSIVE_MESSAGE_SIZE')
    return 'the TLS handshake is larger than allowed (a certificate chain over 100 KiB?)';
  if (code?.startsWith('ERR_SSL_') || code === 'EPROTO') return `TLS handshake failed: ${reason ?? code}`;
  return describeNetworkError(error, timeoutMs);
}

/** "R11 (Let's Encrypt)": the common name, with the organization when it says more. */
function nameOf(entity: PeerCertificate['subject'] | undefined): string | undefined {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const cn = first(entity?.CN);
  const o = first(entity?.O);
  const text = cn && o && o !== cn ? `${cn} (${o})` : (cn ?? o);
  return text ? clip(text) : undefined;
}

function clip(text: string): string {
  return text.length > NAME_CHARS ? `${text.slice(0, NAME_CHARS)}…` : text;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([^-]*)-----END CERTIFICATE-----/g;

/**
 * The certificates of a PEM text, each wrapped anew (a one-line form field may have turned its line breaks into
 * spaces); null when there is none, too many, or one that is not a certificate.
 */
export function pemCertificates(text: string): string[] | null {
  const out: string[] = [];
  for (const [, body = ''] of text.matchAll(PEM_CERTIFICATE)) {
    const base64 = body.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || out.length >= TLS_CA_LIMITS.certificates) return null;
    try {
      new X509Certificate(Buffer.from(base64, 'base64'));
    } catch {
      return null;
    }
    out.push(`-----BEGIN CERTIFICATE-----\n${base64.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`);
  }
  return out.length > 0 ? out : null;
}
