// The organization API's operations as its OpenAPI document lists them (with the role each needs), and path parameters
// naming one organization's own objects, so a test can call every route on them.
import { randomBytes } from 'node:crypto';
import type { Role } from '../src/domain/account.js';
import { putBoard } from '../src/services/boards/write.js';
import { type SignedInUser, signedInUser } from './accounts.js';
import { type ApiHarness, T0, type TestOrganization } from './api-app.js';

export interface Operation {
  method: string;
  path: string;
  /** Any method but GET. */
  write: boolean;
  /** The weakest role allowed (`x-warden-role`). */
  role: Role;
  /** Query parameters it cannot go without. */
  requiredQuery: string[];
}

/** Bodies valid enough to pass validation, so a route reaches its role and ownership checks. */
export const VALID_BODIES: Record<string, unknown> = {
  'POST /api/v1/pages/{slug}/components': { name: 'X' },
  'POST /api/v1/pages/{slug}/incidents': { title: 'X', message: 'm' },
  'POST /api/v1/pages/{slug}/maintenance': { title: 'X', startsAt: T0, endsAt: T0 + 1 },
  'POST /api/v1/incidents/{id}/updates': { status: 'resolved', message: 'm' },
  'PATCH /api/v1/members/{userId}': { role: 'viewer' },
  'POST /api/v1/pages/{slug}/components/order': { components: [] },
  'POST /api/v1/pages/{slug}/boards': { key: 'x', webhookUrl: 'https://discord.com/api/webhooks/1/abcdefghijklmnop' },
};

/** Every operation of the organization API (an API key or a session), from the document the server serves. */
export async function apiOperations(h: ApiHarness): Promise<Operation[]> {
  type Doc = {
    security?: Record<string, string[]>[];
    'x-warden-role'?: Role;
    parameters?: { in: string; name: string; required?: boolean }[];
  };
  const doc = await (await h.call('GET', '/api/openapi.json', { key: null })).json();
  return Object.entries(doc.paths as Record<string, Record<string, Doc>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => op.security?.some((s) => 'apiKey' in s))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        write: method !== 'get',
        role: op['x-warden-role'] ?? 'viewer',
        requiredQuery: (op.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => p.name),
      })),
  );
}

export interface OrganizationObjects {
  /** A template (`/api/v1/monitors/{id}`) with the organization's own objects in its parameters (its channel: `ops-<slug>`). */
  paths(template: string): string;
  /** An owner, signed in. */
  owner: SignedInUser;
}

/**
 * Gives the organization what every kind of path parameter names — an owner (a member), a pending invitation, a
 * notification channel — and answers templates with its objects. Its write key reads them.
 */
export async function organizationObjects(
  h: ApiHarness,
  org: TestOrganization,
  slug: string,
): Promise<OrganizationObjects> {
  const key = { key: org.writeKey };
  const owner = await signedInUser(h.context, [{ organizationId: org.id, role: 'owner' }]);
  const invited = await h.call('POST', '/api/v1/invitations', { ...key, body: { role: 'viewer' } });
  if (invited.status !== 201) throw new Error(`inviting failed: ${await invited.text()}`);
  const channel = await h.call('POST', '/api/v1/notification-channels', {
    ...key,
    body: {
      key: `ops-${slug}`,
      name: 'Ops',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook', secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` },
    },
  });
  if (channel.status !== 201) throw new Error(`adding a channel failed: ${await channel.text()}`);
  // As warden.yaml declares it: the editors' writes in the role tests cannot delete it from under the reads.
  const { board } = await putBoard(
    { ...h.context, organizationId: org.id, writer: 'config' },
    { slug, key: 'community', webhookUrl: 'https://discord.com/api/webhooks/1/abcdefghijklmnop' },
  );
  // As warden.yaml declares it, like the board: the editors' writes cannot delete it from under the reads.
  const policyId = `esc_${randomBytes(8).toString('hex')}`;
  await h.store.escalationPolicies.insert(
    {
      id: policyId,
      organizationId: org.id,
      key: `oncall-${slug}`,
      name: 'On call',
      steps: [{ afterMin: 0, channels: [`ops-${slug}`] }],
      monitors: null,
      managedBy: 'config',
    },
    h.clock.now(),
  );
  const monitorId = Object.values(org.monitors)[0]?.id as string;
  // An open alert (its monitor went down) and a waiting draft incident of the page's first component.
  const alert = await h.store.alerts.open({
    id: `alr_${randomBytes(8).toString('hex')}`,
    organizationId: org.id,
    monitorId,
    openedAt: h.clock.now(),
    openedState: 'down',
    policyId: null,
  });
  const page = await h.store.pages.findBySlug(slug);
  const [component] = await h.store.components.list(page?.id as string);
  const draftId = `idr_${randomBytes(8).toString('hex')}`;
  await h.store.incidentDrafts.insert(
    {
      id: draftId,
      organizationId: org.id,
      pageId: page?.id as string,
      componentId: component?.id as string,
      downSince: h.clock.now() - 3600_000,
      title: 'Down',
      message: 'Down.',
      status: 'draft',
      discardedReason: null,
      incidentId: null,
    },
    h.clock.now(),
  );
  const first = async (path: string, list: string) =>
    ((await (await h.call('GET', path, key)).json())[list][0] as { id: string }).id;
  const ids = {
    component: await first(`/api/v1/pages/${slug}/components`, 'components'),
    incident: await first(`/api/v1/pages/${slug}/incidents`, 'incidents'),
    window: await first(`/api/v1/pages/${slug}/maintenance`, 'maintenance'),
    board: board.id,
    relay: await first('/api/v1/relays', 'relays'),
    apiKey: await first('/api/v1/api-keys', 'apiKeys'),
    invitation: await first('/api/v1/invitations', 'invitations'),
    monitor: monitorId,
    policy: policyId,
    alert: alert.id,
    draft: draftId,
  };
  const idFor = (path: string) =>
    path.includes('/escalation-policies/')
      ? ids.policy
      : path.includes('/alerts/')
        ? ids.alert
        : path.includes('/incident-drafts/')
          ? ids.draft
          : otherIdFor(path);
  const otherIdFor = (path: string) =>
    path.includes('/components/')
      ? ids.component
      : path.includes('incidents/')
        ? ids.incident
        : path.includes('/maintenance/')
          ? ids.window
          : path.includes('/boards/')
            ? ids.board
            : path.includes('/relays/')
              ? ids.relay
              : path.includes('/api-keys/')
                ? ids.apiKey
                : path.includes('/invitations/')
                  ? ids.invitation
                  : ids.monitor;
  return {
    owner,
    paths: (template) =>
      template
        .replace('{slug}', slug)
        .replace('{key}', `ops-${slug}`)
        .replace('{userId}', owner.userId)
        .replace('{id}', idFor(template))
        .replace('{name}', 'logo'),
  };
}
