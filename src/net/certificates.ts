// What probes say about a server's certificate, http and tls alike: its expiry against the monitor's certExpiryDays, and
// why verification refused it, in the same words everywhere.

/** The error of a check refused because the certificate expired: the TLS notices know it by this text. */
export const CERTIFICATE_EXPIRED_ERROR = 'the TLS certificate has expired';

/** Why Node refused a certificate, by the code of its error or of a socket's authorizationError. */
export const CERTIFICATE_ERRORS: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the TLS certificate chain ends in an untrusted self-signed certificate',
  CERT_HAS_EXPIRED: CERTIFICATE_EXPIRED_ERROR,
  CERT_NOT_YET_VALID: 'the TLS certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the TLS certificate does not match the host name',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the TLS certificate could not be verified (incomplete chain?)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the TLS certificate was issued by an unknown authority',
};

/** The expiry of a server's certificate as results record it (`tlsValidTo`, `tlsDaysRemaining`). */
export interface CertificateExpiry {
  /** ISO 8601 expiry of the certificate. */
  validTo: string;
  /** Whole days until expiry, negative once expired. */
  daysRemaining: number;
}

const DAY_MS = 86_400_000;

/** The expiry of a certificate whose `valid_to` Node gave as text; undefined when the text is no date. */
export function certificateExpiry(validToText: string, now = Date.now()): CertificateExpiry | undefined {
  const validTo = Date.parse(validToText);
  if (Number.isNaN(validTo)) return undefined;
  return { validTo: new Date(validTo).toISOString(), daysRemaining: Math.floor((validTo - now) / DAY_MS) };
}

/**
 * What a certificate's expiry makes of a check that otherwise passed: a failure once expired, a warning (degraded)
 * with fewer than `thresholdDays` days left (0 never warns), else a note for the check's message.
 */
export function expiryVerdict(
  expiry: CertificateExpiry,
  thresholdDays: number,
): { failure: string } | { warning: string } | { note: string } {
  const days = expiry.daysRemaining;
  if (days < 0) return { failure: `the TLS certificate expired on ${expiry.validTo.slice(0, 10)}` };
  if (days < thresholdDays) return { warning: `certificate ${expiresIn(days)}` };
  return {
    note: days === 0 ? 'certificate expires today' : `certificate valid for ${days} more day${days === 1 ? '' : 's'}`,
  };
}

/** "expires today", "expires in 1 day", "expires in 5 days". */
export function expiresIn(days: number): string {
  if (days <= 0) return 'expires today';
  return `expires in ${days} day${days === 1 ? '' : 's'}`;
}
