// Who may open the organization's live stream (WS /api/v1/live): an API key, or a signed-in browser from Warden's own pages.
import type { IncomingMessage } from 'node:http';
import { authenticateSession } from '../services/accounts/authenticate-session.js';
import { authenticateApiKey } from '../services/api-keys/authenticate.js';
import type { ServiceContext } from '../services/context.js';
import { actingMembership } from '../services/members/acting-membership.js';
import { sessionTokenOfCookieHeader } from './session-cookie.js';

export const ORGANIZATION_LIVE_PATH = '/api/v1/live';

/** Why a handshake is refused: the status and problem fields of its answer. */
export interface StreamRefusal {
  status: 401 | 403;
  code: string;
  title: string;
  detail: string;
  headers?: Record<string, string>;
}

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;
const CHALLENGE = 'Bearer realm="warden"';

/**
 * The organization a handshake may follow, or why not. Like the organization API: `Authorization: Bearer wdn_…` (a
 * script), or the session cookie with the organization named by `?organization=` (key or id; browsers cannot set
 * headers on a WebSocket), else the user's first. Any member may listen. A cookie only counts when the handshake's
 * Origin is Warden itself: a page of another site must not open a stream with a visitor's cookie (cross-site
 * WebSocket hijacking; SameSite=Lax does not cover it, a WebSocket handshake is a same-site GET to the browser).
 */
export async function organizationStreamAccess(
  ctx: ServiceContext,
  req: IncomingMessage,
  query: URLSearchParams,
): Promise<{ organizationId: string } | StreamRefusal> {
  const header = req.headers.authorization;
  const secret = header === undefined ? undefined : BEARER.exec(header)?.[1];
  if (secret !== undefined) {
    const apiKey = await authenticateApiKey(ctx, { secret });
    if (!apiKey)
      return {
        status: 401,
        code: 'unauthorized',
        title: 'Unauthorized',
        detail: 'The API key is not valid: it is malformed, unknown or revoked.',
        headers: { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` },
      };
    return { organizationId: apiKey.organizationId };
  }
  const token = sessionTokenOfCookieHeader(req.headers.cookie);
  const signedIn = token === undefined ? null : await authenticateSession(ctx, { token });
  if (!signedIn)
    return {
      status: 401,
      code: 'unauthorized',
      title: 'Unauthorized',
      detail: 'Send an API key as "Authorization: Bearer wdn_…", or sign in at /app.',
      headers: { 'WWW-Authenticate': CHALLENGE },
    };
  if (!fromOwnPages(ctx, req))
    return {
      status: 403,
      code: 'forbidden',
      title: 'Forbidden',
      detail:
        'A signed-in browser may open the stream only from Warden’s own pages (the Origin header names another site).',
    };
  const wanted = query.get('organization') ?? undefined;
  const membership = await actingMembership(ctx, { userId: signedIn.user.id, wanted });
  if (!membership)
    return {
      status: 403,
      code: 'no-organization',
      title: 'No organization',
      detail:
        wanted === undefined
          ? 'You are not a member of any organization.'
          : `You are not a member of the organization "${wanted}".`,
    };
  return { organizationId: membership.organizationId };
}

/** The Origin is Warden's public address, or the host the handshake was sent to (either scheme): never another site. */
function fromOwnPages(ctx: ServiceContext, req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return false;
  const own = new Set<string>();
  if (ctx.baseUrl) own.add(new URL(ctx.baseUrl).origin);
  const host = req.headers.host;
  if (host) for (const scheme of ['http', 'https']) own.add(`${scheme}://${host}`);
  return own.has(origin);
}
