// Warden as an OpenID Connect relying party (openid-client): the provider's metadata discovered once per process, the
// authorization request (code flow with PKCE, state and nonce) and the code exchange that yields the claims accounts are
// matched by. No state is kept between the two steps: the caller carries the checks (a cookie), so any process of a
// cluster can finish a sign-in another one began.
import type * as Oidc from 'openid-client';
import { importPackage } from '../../runtime/launcher.js';

/** The OpenID Connect provider Warden signs in with (WARDEN_OIDC_*, read by config/settings.ts). */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in button says: "Sign in with {name}". */
  name: string;
}

/** The scopes asked for: the subject, the email and whether the provider verified it, and a name to greet. */
export const OIDC_SCOPES = 'openid email profile';

/** Every request to the provider (discovery, token, userinfo) gives up after this long. */
export const OIDC_TIMEOUT_SEC = 10;

/** What the callback must present again: proof it finishes the request this browser began. */
export interface OidcChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** What the provider says of the person who signed in. */
export interface OidcClaims {
  issuer: string;
  subject: string;
  email: string | null;
  /** True only when the provider says `email_verified: true` for this very email. */
  emailVerified: boolean;
  name: string | null;
}

/** Why a sign-in at the provider did not give claims; `cancelled` when the person declined at the provider. */
export class OidcFailure extends Error {
  constructor(
    readonly reason: 'unavailable' | 'cancelled' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

export interface OidcClient {
  /** The provider's address for this browser, and the checks to keep until it comes back. */
  begin(redirectUri: string): Promise<{ url: URL; checks: OidcChecks }>;
  /** Exchanges the code of `callbackUrl` (the redirect URI with the provider's query) under the checks; throws OidcFailure. */
  finish(callbackUrl: URL, checks: OidcChecks): Promise<OidcClaims>;
}

export function createOidcClient(settings: OidcSettings): OidcClient {
  let discovered: Promise<{ oidc: typeof Oidc; config: Oidc.Configuration }> | null = null;
  /**
   * The metadata, discovered at the first sign-in and kept; a failed discovery is tried again at the next. The library
   * too is loaded then, not at start-up.
   */
  const configuration = (): Promise<{ oidc: typeof Oidc; config: Oidc.Configuration }> => {
    discovered ??= importPackage<typeof Oidc>('openid-client').then((oidc) =>
      discover(oidc, settings).then(
        (config) => ({ oidc, config }),
        (error: unknown) => {
          discovered = null;
          throw new OidcFailure('unavailable', `discovery at ${settings.issuer} failed: ${describe(oidc, error)}`);
        },
      ),
    );
    return discovered;
  };
  return {
    async begin(redirectUri) {
      const { oidc, config } = await configuration();
      const checks: OidcChecks = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: OIDC_SCOPES,
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        state: checks.state,
        nonce: checks.nonce,
      });
      return { url, checks };
    },
    async finish(callbackUrl, checks) {
      const { oidc, config } = await configuration();
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
        const id = tokens.claims();
        if (!id) throw new Error('the provider returned no ID token');
        // Some providers put the email in the ID token, others only at the userinfo endpoint: the address and whether it
        // is verified are taken together from one source, never mixed.
        let source: Record<string, unknown> = id;
        if ((id.email === undefined || id.email_verified === undefined) && config.serverMetadata().userinfo_endpoint)
          source = await oidc.fetchUserInfo(config, tokens.access_token, id.sub);
        const email = typeof source.email === 'string' ? source.email.trim().toLowerCase() : null;
        const name = [id.name, source.name, id.preferred_username, source.preferred_username].find(
          (v): v is string => typeof v === 'string' && v.trim() !== '',
        );
        return {
          issuer: id.iss,
          subject: id.sub,
          email,
          emailVerified: source.email_verified === true,
          name: name?.trim() ?? null,
        };
      } catch (error) {
        if (error instanceof oidc.AuthorizationResponseError && error.error === 'access_denied')
          throw new OidcFailure('cancelled', describe(oidc, error));
        throw new OidcFailure('failed', describe(oidc, error));
      }
    },
  };
}

async function discover(oidc: typeof Oidc, settings: OidcSettings): Promise<Oidc.Configuration> {
  const issuer = new URL(settings.issuer);
  // openid-client speaks https only; plain http is let through for a provider on this machine (a test or a local trial).
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
  // client_secret_basic: the default method of OpenID Connect client registration, which every provider accepts.
  return oidc.discovery(issuer, settings.clientId, undefined, oidc.ClientSecretBasic(settings.clientSecret), {
    timeout: OIDC_TIMEOUT_SEC,
    ...(issuer.protocol === 'http:' && loopback ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
}

/**
 * What a failure says for the log: the library's message and the provider's error code, never a response body (which
 * could hold a token) nor the client secret.
 */
function describe(oidc: typeof Oidc, error: unknown): string {
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError)
    return `${error.message} (${error.error}${error.error_description ? `: ${error.error_description.slice(0, 200)}` : ''})`;
  // A network failure says why in its cause (ECONNREFUSED, ENOTFOUND, a timeout).
  if (error instanceof Error)
    return [error.message, (error as { code?: unknown }).code, (error.cause as { code?: unknown } | undefined)?.code]
      .filter((v) => typeof v === 'string')
      .join(' ');
  return 'unknown error';
}
