// The limits that keep one client, token or tenant from hurting the others (docs/security.md lists each with its setting).
import type { SmtpTenantMode } from './system-mail.js';

export type ProbeTargetPolicy = 'allow' | 'deny';

export interface SecurityOptions {
  /** Whether X-Forwarded-For (its last entry, set by the proxy in front) names the client instead of the socket's peer. */
  trustProxy: boolean;
  /** Password attempts (form, Bearer header, live-stream handshake) per client address and page per minute. */
  loginAttemptsPerMinute: number;
  /** Pushes per token: a steady rate per second and the burst above it a token bucket allows. */
  pushPerSecond: number;
  pushBurst: number;
  /** Live-stream connections per client address. */
  liveConnectionsPerClient: number;
  /** Live-stream connections in all; undefined derives it from the process's file-descriptor limit. */
  liveConnectionsMax: number | undefined;
  /**
   * Whether edge probes may reach loopback, private, link-local and similar addresses. `auto`: allowed while the
   * database holds one organization, refused for every organization without its own setting once there are more.
   */
  probePrivateTargets: ProbeTargetPolicy | 'auto';
  /**
   * WARDEN_SMTP_TENANTS: which email channels may use the system SMTP server, and whose recipients must confirm first
   * (domain/system-mail.ts). `auto`: warden.yaml's channels, and every channel while the database holds one
   * organization, mail at once; the others' recipients confirm.
   */
  smtpTenants: SmtpTenantMode;
  /** How often each process polls the change counter, so writes by another process apply within about this long. */
  changePollMs: number;
}

export const SECURITY_DEFAULTS: SecurityOptions = {
  trustProxy: false,
  loginAttemptsPerMinute: 10,
  pushPerSecond: 10,
  pushBurst: 20,
  liveConnectionsPerClient: 50,
  liveConnectionsMax: undefined,
  probePrivateTargets: 'auto',
  smtpTenants: 'auto',
  changePollMs: 1_000,
};
