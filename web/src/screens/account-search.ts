// The query parameters of the signed-out screens: where to go after signing in, and the one-time link's token.

/** Why a sign-in through the OpenID Connect provider came back to /app/login?error=… (src/http/routes/auth/oidc.ts). */
export const SIGN_IN_ERRORS: Record<string, string> = {
  'oidc-unavailable': 'The sign-in provider cannot be reached. Try again later, or sign in with your password.',
  'oidc-cancelled': 'Signing in with the provider was cancelled.',
  'oidc-failed': 'The provider’s answer could not be verified. Try again.',
  'oidc-expired': 'Signing in took too long. Try again.',
  'oidc-no-email': 'The provider did not share your email address, which Warden needs to know you.',
  'oidc-email-unverified': 'Your email address is not verified at the provider.',
  'oidc-account-unverified':
    'A Warden account uses this email address but has not confirmed it. Sign in with its password and confirm the address under Account, then sign in with the provider.',
  'no-account': 'No account uses this email address. Ask an administrator for an invitation.',
};

/**
 * /app/login's query: ?next= is a path inside the dashboard (router-relative, as the auth guard writes it), ?error= a
 * known reason a provider sign-in failed; anything else is ignored.
 */
export function loginSearch(search: Record<string, unknown>): { next?: string; error?: string } {
  const { next, error } = search;
  return {
    ...(typeof next === 'string' && safeNext(next) ? { next } : {}),
    ...(typeof error === 'string' && Object.hasOwn(SIGN_IN_ERRORS, error) ? { error } : {}),
  };
}

export function tokenSearch(search: Record<string, unknown>): { token?: string } {
  const token = search['token'];
  return typeof token === 'string' && /^[\w-]{1,200}$/.test(token) ? { token } : {};
}

/** Only a local path: never another site (`//evil.example`, `/\\evil.example`) or a scheme. */
export function safeNext(next: string | undefined): next is string {
  if (next === undefined) return false;
  return next.startsWith('/') && !next.startsWith('//') && !next.includes('\\') && next.length <= 2000;
}
