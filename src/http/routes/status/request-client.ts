// The client a page request comes from, as the per-client limits key it (password attempts, live streams).
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { clientAddress } from '../../client-address.js';
import type { AppEnv } from '../../env.js';

/** The socket's peer (Node's request, `c.env.incoming`), or X-Forwarded-For's last entry behind a trusted proxy. */
export function requestClient(c: Context<AppEnv>): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return clientAddress(
    incoming?.socket?.remoteAddress,
    c.req.header('x-forwarded-for'),
    c.get('deps').security.trustProxy,
  );
}
