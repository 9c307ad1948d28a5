// The live streams' WebSocket edge: upgrades WS /s/{slug}/live (or /live on a custom domain) and hands sockets to the page
// hub; WS /api/v1/live (the dashboard's, per organization) to the organization hub.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Clock } from '../domain/clock.js';
import type { Page } from '../domain/page.js';
import { SECURITY_DEFAULTS, type SecurityOptions } from '../domain/security.js';
import type { Logger } from '../logger.js';
import type { ServiceContext } from '../services/context.js';
import { createLiveHub, type LiveHub, type LiveSubscriber } from '../services/live/hub.js';
import { LIVE_CLOSE, LIVE_LIMITS, type LiveLimits, liveConnectionsCap } from '../services/live/limits.js';
import {
  createOrganizationHub,
  type OrganizationHub,
  type OrganizationHubLimits,
} from '../services/live/organization-hub.js';
import type { PageAccess } from '../services/pages/page-access.js';
import type { PageCache } from '../services/pages/page-cache.js';
import { createAdmission } from './live-admission.js';
import {
  closeWithin,
  descriptorLimit,
  leaveOnClose,
  liveSocketServer,
  subscriberFor,
  trackSockets,
} from './live-sockets.js';
import { ORGANIZATION_LIVE_PATH, organizationStreamAccess } from './organization-live.js';
import { STARTING_HEADERS, STARTING_PROBLEM } from './readiness-gate.js';
import { resolveLiveTarget } from './routes/status/page-paths.js';
import { PAGE_CHALLENGE } from './routes/status/serve-form.js';
import { refuseBadHandshake, refuseShuttingDown, refuseUpgrade } from './upgrade-refusal.js';

export { subscriberFor } from './live-sockets.js';

export interface LiveStreamDeps {
  pages: PageCache;
  pageAccess: PageAccess;
  clock: Clock;
  logger: Logger;
  limits?: Partial<LiveLimits>;
  /** Who a client is, and how many streams it and everyone may hold; SECURITY_DEFAULTS for what is not given. */
  security?: Partial<Pick<SecurityOptions, 'trustProxy' | 'liveConnectionsPerClient' | 'liveConnectionsMax'>>;
  /** The verbs' context (store, bus, clock, logger, baseUrl): with it, WS /api/v1/live serves the dashboard. */
  organizations?: ServiceContext | undefined;
  organizationLimits?: Partial<OrganizationHubLimits>;
  /** False while the server starts: an upgrade is then refused 503, as every request is (readiness-gate.ts). */
  isReady?: (() => boolean) | undefined;
}

export interface LiveStream {
  hub: LiveHub;
  /** The dashboard's stream, when `organizations` was given. */
  organizationHub: OrganizationHub | null;
  /** Open WebSocket connections. */
  connections(): number;
  /** The streams taken in all: WARDEN_LIVE_MAX, or derived from the descriptor limit (see liveConnectionsCap). */
  maxConnections: number;
  /** Refuses new streams, closes the open ones (1001, then cut after a grace period). */
  close(): Promise<void>;
}

/** Listens for upgrades on the node server: the page streams and, with `organizations`, WS /api/v1/live; any other upgrade is refused (404). */
export function attachLiveStream(server: Server, deps: LiveStreamDeps): LiveStream {
  const limits: LiveLimits = { ...LIVE_LIMITS, ...deps.limits };
  const hub = createLiveHub({ pages: deps.pages, logger: deps.logger, keepWarmMs: limits.keepWarmMs });
  const organizations = deps.organizations;
  const organizationHub = organizations ? createOrganizationHub(organizations, deps.organizationLimits) : null;
  const wss = liveSocketServer(limits.maxIncomingBytes);
  const security = { ...SECURITY_DEFAULTS, ...deps.security };
  const perClient = security.liveConnectionsPerClient;
  const total = security.liveConnectionsMax ?? liveConnectionsCap(descriptorLimit());
  let closing = false;
  const { admit } = createAdmission({ perClient, total, trustProxy: security.trustProxy, closing: () => closing });

  const sockets = trackSockets(limits.pingIntervalMs, deps.logger);

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path === ORGANIZATION_LIVE_PATH && organizations && organizationHub)
      return upgradeOrganization(
        req,
        socket,
        head,
        organizations,
        organizationHub,
        new URLSearchParams(query === -1 ? '' : url.slice(query + 1)),
      );
    const target = resolveLiveTarget(deps.pages, req.headers.host, path);
    if (!target) return refuseUpgrade(socket, 404, 'not-found', 'Not found', `No WebSocket is served at ${path}.`);
    if (refuseBadHandshake(req, socket)) return;
    const page = target.page;
    if (!page)
      return refuseUpgrade(
        socket,
        404,
        'page-not-found',
        'Page not found',
        `There is no status page "${target.slug}".`,
      );
    const client = admit(req, socket);
    if (client === undefined) return;
    if (page.passwordHash !== null && !(await pageAllowed(deps, page, req, socket, client))) return;
    const snapshot = (await deps.pages.get(page)).snapshot;
    accept(req, socket, head, (ws, subscriber) => {
      const leave = hub.join(page, snapshot, subscriber);
      ws.on('close', () => {
        sockets.delete(ws);
        leave();
      });
    });
  }

  /** WS /api/v1/live: the same caps as a page's stream, then the organization API's authentication. */
  async function upgradeOrganization(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    ctx: ServiceContext,
    organizationHub: OrganizationHub,
    query: URLSearchParams,
  ): Promise<void> {
    if (refuseBadHandshake(req, socket)) return;
    if (admit(req, socket) === undefined) return;
    const access = await organizationStreamAccess(ctx, req, query);
    if ('status' in access)
      return refuseUpgrade(socket, access.status, access.code, access.title, access.detail, access.headers);
    accept(req, socket, head, (ws, subscriber) => {
      const joining = organizationHub.join(access.organizationId, subscriber);
      leaveOnClose(ws, joining, deps.logger, () => sockets.delete(ws));
    });
  }

  /** The last step of both: refused if the server began closing meanwhile, else upgraded, tracked and handed over. */
  function accept(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    open: (ws: WebSocket, subscriber: LiveSubscriber) => void,
  ): void {
    if (socket.destroyed) return;
    if (closing) {
      refuseShuttingDown(socket);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      open(ws, subscriberFor(ws, limits.maxBufferedBytes, deps.logger));
    });
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Errors on a socket mid-handshake (a client hanging up) must not crash the process.
    socket.on('error', () => {});
    if (deps.isReady?.() === false) {
      const { title, detail = '' } = STARTING_PROBLEM;
      return refuseUpgrade(socket, 503, 'starting', title, detail, { 'Retry-After': STARTING_HEADERS['retry-after'] });
    }
    upgrade(req, socket, head).catch((error: unknown) => {
      deps.logger.error({ err: error }, 'live stream upgrade failed');
      refuseUpgrade(socket, 500, 'internal', 'Internal error', 'Something went wrong on our side.');
    });
  };
  server.on('upgrade', onUpgrade);

  return {
    hub,
    organizationHub,
    connections: sockets.size,
    maxConnections: total,
    async close() {
      if (closing) return;
      closing = true;
      server.off('upgrade', onUpgrade);
      await closeWithin(sockets.stop(), limits.closeGraceMs, () => {
        hub.close(LIVE_CLOSE.goingAway, 'server shutting down');
        organizationHub?.close(LIVE_CLOSE.goingAway, 'server shutting down');
      });
    },
  };
}

/** A protected page's stream: true when the request carries its password (cookie or bearer); else refused here. */
async function pageAllowed(
  deps: LiveStreamDeps,
  page: Page,
  req: IncomingMessage,
  socket: Duplex,
  client: string,
): Promise<boolean> {
  const request = { cookie: req.headers.cookie, authorization: req.headers.authorization, client };
  const access = await deps.pageAccess.allowed(page, request, () => deps.clock.now());
  if (access.kind === 'limited')
    refuseUpgrade(
      socket,
      429,
      'too-many-attempts',
      'Too many password attempts',
      `Too many wrong passwords for this page from your address; try again in ${access.retryAfterSec} s.`,
      {
        'Retry-After': String(access.retryAfterSec),
      },
    );
  else if (access.kind === 'denied')
    refuseUpgrade(
      socket,
      401,
      'password-required',
      'Password required',
      'This page is protected: log in on the page (cookie) or send Authorization: Bearer <page password>.',
      {
        'WWW-Authenticate': PAGE_CHALLENGE,
      },
    );
  return access.kind !== 'limited' && access.kind !== 'denied';
}
