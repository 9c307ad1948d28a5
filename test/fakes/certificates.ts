// Certificates made at test time (selfsigned: WebCrypto, no openssl command, offline): a private CA, and server
// certificates that expire when a test needs them to, for the names it needs, signed by that CA or by themselves.
import { generate } from 'selfsigned';
import type { Certificate } from './http-fakes.js';

const DAY_MS = 86_400_000;

export interface ServerCertificateOptions {
  /** DNS names and IP addresses the certificate is for; localhost and 127.0.0.1 unless given. */
  names?: string[];
  /**
   * Whole days until it expires, counted as probes count them (an hour more, so the count holds all test long); a
   * negative number for one that expired that many days ago.
   */
  expiresInDays?: number;
  /** Days until it becomes valid, for one not valid yet; it was valid since yesterday unless given. */
  validInDays?: number;
  /** The CA that signs it (its certificate then follows in `cert`, as a server sends its chain); self-signed without. */
  issuer?: Certificate;
  /** Copies of the issuer's certificate sent after it, to make a chain as large as a test needs. */
  chainPadding?: number;
}

/** A CA certificate and its key, named "Warden Test CA" of organization "Warden Tests" unless given another name. */
export async function certificateAuthority(name = 'Warden Test CA'): Promise<Certificate> {
  const pems = await generate(
    [
      { name: 'commonName', value: name },
      { name: 'organizationName', value: 'Warden Tests' },
    ],
    {
      keyType: 'ec',
      algorithm: 'sha256',
      notBeforeDate: new Date(Date.now() - DAY_MS),
      notAfterDate: new Date(Date.now() + 3650 * DAY_MS),
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ],
    },
  );
  return { key: pems.private, cert: pems.cert };
}

/** A server certificate (key and chain, as tls.createServer takes them). */
export async function serverCertificate(options: ServerCertificateOptions = {}): Promise<Certificate> {
  const names = options.names ?? ['localhost', '127.0.0.1'];
  const now = Date.now();
  const expiresInDays = options.expiresInDays ?? 90;
  const notAfter = new Date(now + expiresInDays * DAY_MS + 3_600_000);
  const notBefore = new Date(
    options.validInDays === undefined
      ? Math.min(now - DAY_MS, notAfter.getTime() - DAY_MS)
      : now + options.validInDays * DAY_MS,
  );
  const altNames = names.map((name) =>
    /^[\d.]+$|:/.test(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name },
  );
  const pems = await generate([{ name: 'commonName', value: names[0] ?? 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: notBefore,
    notAfterDate: notAfter,
    ...(options.issuer ? { ca: options.issuer } : {}),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  const issuers = options.issuer
    ? Array.from({ length: 1 + (options.chainPadding ?? 0) }, () => options.issuer?.cert ?? '')
    : [];
  // One PEM text, each certificate on lines of its own (selfsigned ends its PEM without a line break).
  return { key: pems.private, cert: [pems.cert, ...issuers].map((pem) => pem.trim()).join('\n') };
}
