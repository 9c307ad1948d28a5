// A registry's RDAP server (RFC 9083 domain objects as application/rdap+json) on node:http: domains that expire when a
// test says, redirects to a registrar's server, 404s, rate limits, malformed and huge answers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** What the server answers for one domain name. */
export type RdapRoute =
  /** A domain object; expiresAt null leaves out the expiration event (registries that publish none). */
  | { expiresAt: string | null; registrarExpiresAt?: string; ldhName?: string }
  | { redirect: string; status?: 301 | 302 | 303 | 307 | 308 }
  | { status: number; body?: string; headers?: Record<string, string> }
  /** A valid domain object padded past this many bytes. */
  | { hugeBytes: number };

export interface FakeRdap {
  port: number;
  /** The base URL to give as rdapUrl or in a bootstrap file: http://127.0.0.1:port/rdap/ */
  base: string;
  /** Each request: path and Accept header. */
  requests: { path: string; accept: string | undefined }[];
  /** Requests for one domain name. */
  asked(name: string): number;
  route(name: string, route: RdapRoute): void;
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;

/** An expiry `days` from now, as an RDAP eventDate. */
export function inDays(days: number, now = Date.now()): string {
  return new Date(now + days * DAY_MS + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The domain object a registry such as Verisign's answers, with the events the probe reads among others. */
export function domainObject(
  name: string,
  route: { expiresAt: string | null; registrarExpiresAt?: string; ldhName?: string },
  base: string,
): Record<string, unknown> {
  const events: { eventAction: string; eventDate: string }[] = [
    { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
  ];
  if (route.expiresAt !== null) events.push({ eventAction: 'expiration', eventDate: route.expiresAt });
  if (route.registrarExpiresAt)
    events.push({ eventAction: 'registrar expiration', eventDate: route.registrarExpiresAt });
  events.push({ eventAction: 'last update of RDAP database', eventDate: new Date().toISOString() });
  return {
    objectClassName: 'domain',
    handle: `${name.toUpperCase().replaceAll('.', '_')}-DOM`,
    ldhName: route.ldhName ?? name.toUpperCase(),
    links: [
      { value: `${base}domain/${name}`, rel: 'self', href: `${base}domain/${name}`, type: 'application/rdap+json' },
    ],
    status: ['client delete prohibited', 'client transfer prohibited'],
    entities: [
      {
        objectClassName: 'entity',
        handle: '292',
        roles: ['registrar'],
        publicIds: [{ type: 'IANA Registrar ID', identifier: '292' }],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', 'Example Registrar, Inc.'],
          ],
        ],
      },
    ],
    events,
    secureDNS: { delegationSigned: false },
    nameservers: [{ objectClassName: 'nameserver', ldhName: `NS1.${name.toUpperCase()}` }],
    rdapConformance: ['rdap_level_0', 'icann_rdap_technical_implementation_guide_1', 'icann_rdap_response_profile_1'],
    notices: [{ title: 'Terms of Use', description: ['Service subject to Terms of Use.'] }],
  };
}

export async function startRdapServer(routes: Record<string, RdapRoute> = {}, host = '127.0.0.1'): Promise<FakeRdap> {
  const table = new Map(Object.entries(routes));
  const requests: FakeRdap['requests'] = [];
  let base = '';
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    requests.push({ path, accept: req.headers.accept });
    const match = /^\/rdap\/domain\/([^/?]+)$/.exec(path);
    const name = match?.[1]?.toLowerCase();
    const route = name === undefined ? undefined : table.get(name);
    if (name === undefined || route === undefined)
      return send(res, 404, {
        errorCode: 404,
        title: 'Not Found',
        description: ['The domain is not registered here.'],
      });
    if ('redirect' in route) {
      res.writeHead(route.status ?? 302, { location: `${route.redirect}domain/${name}` });
      return void res.end();
    }
    if ('status' in route) {
      res.writeHead(route.status, { 'content-type': 'application/rdap+json', ...route.headers });
      return void res.end(route.body ?? '');
    }
    if ('hugeBytes' in route) {
      const object = domainObject(name, { expiresAt: inDays(300) }, base);
      return send(res, 200, { ...object, remarks: [{ description: ['x'.repeat(route.hugeBytes)] }] });
    }
    return send(res, 200, domainObject(name, route, base));
  };
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as { port: number }).port;
  base = `http://${host}:${port}/rdap/`;
  return {
    port,
    base,
    requests,
    asked: (name) => requests.filter((r) => r.path === `/rdap/domain/${name}`).length,
    route: (name, route) => void table.set(name, route),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/rdap+json' });
  res.end(JSON.stringify(body));
}
