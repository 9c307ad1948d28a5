// A real OpenID Connect provider for tests (the oidc-provider package) on 127.0.0.1, with one confidential client and
// people whose claims a test sets and changes; its development login and consent forms are what a browser submits.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error oidc-provider ships no type declarations; the few calls made here are checked by the tests that use them.
import Provider from 'oidc-provider';

export interface Person {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface FakeOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** By login (the subject): what the provider says of each person; change it between sign-ins. */
  people: Map<string, Person>;
  close(): Promise<void>;
}

export async function startOidcProvider(options: {
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
}): Promise<FakeOidcProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server: Server = createServer((req, res) => handle(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = options.clientId ?? 'warden';
  const clientSecret = options.clientSecret ?? 'client-secret-never-shown-0123456789';
  const people = new Map<string, Person>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    // Warden must send PKCE, state and nonce: the provider refuses an authorization request without PKCE.
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    async findAccount(_ctx: unknown, sub: string) {
      return { accountId: sub, claims: async () => ({ sub, ...people.get(sub) }) };
    },
  });
  handle = provider.callback();
  return {
    issuer,
    clientId,
    clientSecret,
    people,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
