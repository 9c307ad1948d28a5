// Every write of the organization API as the audit log tests make it: the call, who makes it (the owner or a write
// key), and the entry it must leave, in an order where each succeeds. Relays, monitors and pages here; channels, keys,
// members and organizations in audit-steps-organization.ts; draft incidents in audit-steps-drafts.ts.
import type { SignedInUser } from './accounts.js';
import type { ApiHarness } from './api-app.js';
import { draftSteps } from './audit-steps-drafts.js';
import { keeper, organizationSteps } from './audit-steps-organization.js';
import { panelSteps } from './audit-steps-panels.js';
import type { DnsZone } from './fakes/dns-server.js';
import { solidPng } from './fakes/images.js';
import type { Receiver } from './fakes/notify-receivers.js';

/** One successful call of a write operation, as a user or with a write key, and the entry it must leave. */
export interface Step {
  op: string;
  path: () => string;
  body?: () => unknown;
  by: 'user' | 'key';
  /** The action recorded; null: none (deleting the organization takes its log with it). */
  action: string | null;
  /** The object the entry names, when the step knows it. */
  objectId?: () => string;
  /** The organization the call acts for (X-Warden-Organization), when not Alpha. */
  org?: string;
  /** Keeps what a later step needs from the answer. */
  keep?: (answer: Record<string, unknown>) => void;
}

/** What the steps read when they run: the harness and the people and fakes of the test, and the ids kept so far. */
export interface AuditStepsEnv {
  h: () => ApiHarness;
  member: () => SignedInUser;
  receiver: () => Receiver;
  zone: DnsZone;
  ids: Record<string, string>;
  /** The fake Pterodactyl panel discovery reads. */
  panel: () => { url: string; key: string };
}
export function auditSteps(env: AuditStepsEnv): Step[] {
  return [...pageSteps(env), ...draftSteps(env), ...panelSteps(env), ...pageChildSteps(env), ...organizationSteps(env)];
}

/** The writes of relays, monitors and pages. */
function pageSteps({ h, zone, ids }: AuditStepsEnv): Step[] {
  const { keep, id } = keeper(ids);
  return [
    {
      op: 'POST /api/v1/alerts/{id}/acknowledge',
      path: () => `/api/v1/alerts/${ids.alert}/acknowledge`,
      body: () => ({ note: 'on it' }),
      by: 'key',
      action: 'alert.acknowledge',
      objectId: id('alert'),
    },
    {
      op: 'POST /api/v1/relays',
      path: () => '/api/v1/relays',
      body: () => ({ key: 'attic', name: 'Attic' }),
      by: 'key',
      action: 'relay.create',
      keep: keep('relay'),
    },
    {
      op: 'PATCH /api/v1/relays/{id}',
      path: () => `/api/v1/relays/${ids.relay}`,
      body: () => ({ name: 'Loft' }),
      by: 'user',
      action: 'relay.update',
      objectId: id('relay'),
    },
    {
      op: 'POST /api/v1/relays/{id}/token',
      path: () => `/api/v1/relays/${ids.relay}/token`,
      by: 'key',
      action: 'relay.rotate-token',
      objectId: id('relay'),
    },
    {
      op: 'POST /api/v1/monitors',
      path: () => '/api/v1/monitors',
      body: () => ({ key: 'cron', name: 'Cron', type: 'heartbeat', config: { graceSec: 3600 } }),
      by: 'user',
      action: 'monitor.create',
      keep: keep('monitor'),
    },
    {
      op: 'PATCH /api/v1/monitors/{id}',
      path: () => `/api/v1/monitors/${ids.monitor}`,
      body: () => ({ name: 'Nightly' }),
      by: 'key',
      action: 'monitor.update',
      objectId: id('monitor'),
    },
    {
      op: 'POST /api/v1/monitors/test',
      path: () => '/api/v1/monitors/test',
      body: () => ({ key: 'probe', name: 'Probe', type: 'tcp', config: { host: '127.0.0.1', port: 1 } }),
      by: 'key',
      action: 'monitor.test',
    },
    {
      op: 'POST /api/v1/monitors/{id}/check',
      path: () => `/api/v1/monitors/${h().a.monitors.lobby?.id}/check`,
      by: 'user',
      action: 'monitor.check',
      objectId: () => h().a.monitors.lobby?.id as string,
    },
    {
      op: 'POST /api/v1/monitors/{id}/push-token',
      path: () => `/api/v1/monitors/${ids.monitor}/push-token`,
      by: 'user',
      action: 'monitor.rotate-push-token',
      objectId: id('monitor'),
    },
    {
      op: 'POST /api/v1/pages',
      path: () => '/api/v1/pages',
      body: () => ({
        slug: 'audited',
        title: 'Audited',
        customDomain: 'status.audit.test',
        password: 'hunter2-page',
      }),
      by: 'key',
      action: 'page.create',
      keep: (page) => {
        ids.page = page.id as string;
        zone['_warden.status.audit.test'] = {
          TXT: [{ data: (page.customDomainVerification as { token: string }).token }],
        };
      },
    },
    {
      op: 'PATCH /api/v1/pages/{slug}',
      path: () => '/api/v1/pages/audited',
      body: () => ({ title: 'Audited too' }),
      by: 'user',
      action: 'page.update',
      objectId: id('page'),
    },
    {
      op: 'POST /api/v1/pages/{slug}/domain/verify',
      path: () => '/api/v1/pages/audited/domain/verify',
      by: 'key',
      action: 'page.verify-domain',
      objectId: id('page'),
    },
    {
      op: 'PUT /api/v1/pages/{slug}/assets/{name}',
      path: () => '/api/v1/pages/audited/assets/logo',
      body: () => solidPng('#12b886'),
      by: 'user',
      action: 'page.upload-asset',
      objectId: id('page'),
    },
    {
      op: 'DELETE /api/v1/pages/{slug}/assets/{name}',
      path: () => '/api/v1/pages/audited/assets/logo',
      by: 'key',
      action: 'page.delete-asset',
      objectId: id('page'),
    },
  ];
}

/** The writes of a page's components, incidents, maintenance, boards and subscribers. */
function pageChildSteps({ h, ids }: AuditStepsEnv): Step[] {
  const { keep, id } = keeper(ids);
  return [
    {
      op: 'POST /api/v1/pages/{slug}/components',
      path: () => '/api/v1/pages/audited/components',
      body: () => ({ key: 'hub', name: 'Hub' }),
      by: 'user',
      action: 'component.create',
      keep: keep('component'),
    },
    {
      op: 'PATCH /api/v1/pages/{slug}/components/{id}',
      path: () => `/api/v1/pages/audited/components/${ids.component}`,
      body: () => ({ name: 'Hub 2' }),
      by: 'key',
      action: 'component.update',
      objectId: id('component'),
    },
    {
      op: 'POST /api/v1/pages/{slug}/components/order',
      path: () => '/api/v1/pages/audited/components/order',
      body: () => ({ components: [{ id: ids.component, group: 'Core' }] }),
      by: 'user',
      action: 'page.order-components',
      objectId: id('page'),
    },
    {
      op: 'POST /api/v1/pages/{slug}/incidents',
      path: () => '/api/v1/pages/audited/incidents',
      body: () => ({ title: 'Lag', message: 'Looking' }),
      by: 'key',
      action: 'incident.create',
      keep: keep('incident'),
    },
    {
      op: 'PATCH /api/v1/pages/{slug}/incidents/{id}',
      path: () => `/api/v1/pages/audited/incidents/${ids.incident}`,
      body: () => ({ title: 'Lag spikes' }),
      by: 'user',
      action: 'incident.update',
      objectId: id('incident'),
    },
    {
      op: 'POST /api/v1/incidents/{id}/updates',
      path: () => `/api/v1/incidents/${ids.incident}/updates`,
      body: () => ({ status: 'resolved', message: 'Fixed' }),
      by: 'key',
      action: 'incident.post-update',
      objectId: id('incident'),
    },
    {
      op: 'POST /api/v1/pages/{slug}/maintenance',
      path: () => '/api/v1/pages/audited/maintenance',
      body: () => ({ title: 'Move', startsAt: h().clock.now() + 3600_000, endsAt: h().clock.now() + 7200_000 }),
      by: 'user',
      action: 'maintenance.create',
      keep: keep('window'),
    },
    {
      op: 'PATCH /api/v1/pages/{slug}/maintenance/{id}',
      path: () => `/api/v1/pages/audited/maintenance/${ids.window}`,
      body: () => ({ title: 'Move 2' }),
      by: 'key',
      action: 'maintenance.update',
      objectId: id('window'),
    },
    {
      op: 'DELETE /api/v1/pages/{slug}/maintenance/{id}',
      path: () => `/api/v1/pages/audited/maintenance/${ids.window}`,
      by: 'user',
      action: 'maintenance.delete',
      objectId: id('window'),
    },
    {
      op: 'POST /api/v1/pages/{slug}/boards',
      path: () => '/api/v1/pages/audited/boards',
      body: () => ({ key: 'community', webhookUrl: 'https://discord.com/api/webhooks/1/abcdefghijklmnop' }),
      by: 'key',
      action: 'board.create',
      keep: keep('board'),
    },
    {
      op: 'PATCH /api/v1/pages/{slug}/boards/{id}',
      path: () => `/api/v1/pages/audited/boards/${ids.board}`,
      body: () => ({ enabled: false }),
      by: 'user',
      action: 'board.update',
      objectId: id('board'),
    },
    {
      op: 'DELETE /api/v1/pages/{slug}/boards/{id}',
      path: () => `/api/v1/pages/audited/boards/${ids.board}`,
      by: 'key',
      action: 'board.delete',
      objectId: id('board'),
    },
    {
      op: 'DELETE /api/v1/pages/{slug}/incidents/{id}',
      path: () => `/api/v1/pages/audited/incidents/${ids.incident}`,
      by: 'key',
      action: 'incident.delete',
      objectId: id('incident'),
    },
    {
      op: 'DELETE /api/v1/pages/{slug}/components/{id}',
      path: () => `/api/v1/pages/audited/components/${ids.component}`,
      by: 'user',
      action: 'component.delete',
      objectId: id('component'),
    },
    {
      op: 'POST /api/v1/pages/{slug}/subscribers/{id}/approve',
      path: () => `/api/v1/pages/audited/subscribers/${ids.subscriber}/approve`,
      by: 'key',
      action: 'subscriber.approve',
      objectId: id('subscriber'),
    },
    {
      op: 'DELETE /api/v1/pages/{slug}/subscribers/{id}',
      path: () => `/api/v1/pages/audited/subscribers/${ids.subscriber}`,
      by: 'key',
      action: 'subscriber.delete',
      objectId: id('subscriber'),
    },
  ];
}
