// A browser for the accounts API tests: requests without an API key, from Warden's own origin unless told otherwise,
// carrying a session cookie; and invitations made straight in the store (the organizations API makes them for real).
import type { Role } from '../src/domain/account.js';
import { newId } from '../src/domain/ids.js';
import { generateSecret, hashSecret } from '../src/domain/tokens.js';
import { type ApiHarness, BASE_URL } from './api-app.js';

export interface BrowserRequest {
  body?: unknown;
  /** The session token (the cookie's value); none when absent. */
  session?: string | undefined;
  /** The Origin header; BASE_URL unless given (null: none). */
  origin?: string | null;
  headers?: Record<string, string>;
}

/** A request as Warden's dashboard sends it. */
export function browse(h: ApiHarness, method: string, path: string, request: BrowserRequest = {}): Promise<Response> {
  const { body, session, origin = BASE_URL, headers = {} } = request;
  return h.call(method, path, {
    key: null,
    body,
    headers: {
      ...(origin === null ? {} : { origin }),
      ...(session === undefined ? {} : { cookie: `warden_session=${session}` }),
      ...headers,
    },
  });
}

/** The session token a response set, if it set one. */
export function sessionSet(res: Response): string | undefined {
  return /(?:^|[\s,])warden_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
}

/** The known-device cookie's value a response set, if it set one. */
export function deviceSet(res: Response): string | undefined {
  return /(?:^|[\s,])warden_device=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
}

/** An invitation to `organizationId`, inserted in the store; returns its token (wdi_…) and id. */
export async function insertInvitation(
  h: ApiHarness,
  organizationId: string,
  options: { role?: Role; email?: string | null; expiresAt?: number; revokedAt?: number | null } = {},
): Promise<{ token: string; id: string }> {
  const token = generateSecret('invitation');
  const id = newId('inv');
  const now = h.clock.now();
  await h.store.invitations.insert({
    id,
    organizationId,
    email: options.email ?? null,
    role: options.role ?? 'editor',
    createdBy: null,
    createdAt: now,
    expiresAt: options.expiresAt ?? now + 24 * 3600_000,
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
    hash: hashSecret(token),
  });
  if (options.revokedAt !== undefined && options.revokedAt !== null)
    await h.store.invitations.revoke(organizationId, id, options.revokedAt);
  return { token, id };
}
