// The audit log tests' writes of notification channels, API keys, invitations, members and organizations, and the
// deletions of what the earlier steps (audit-steps.ts) made.
import type { AuditStepsEnv, Step } from './audit-steps.js';

export const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** A step's keep (stores a field of the answer under a name) and id (reads it back when the step runs). */
export function keeper(ids: Record<string, string>) {
  const keep =
    (name: string, field = 'id') =>
    (answer: Record<string, unknown>) => {
      ids[name] = answer[field] as string;
    };
  const id = (name: string) => () => ids[name] as string;
  return { keep, id };
}

export function organizationSteps(env: AuditStepsEnv): Step[] {
  return [...channelAndKeySteps(env), ...removalAndMemberSteps(env)];
}

/** The writes of notification channels and API keys. */
function channelAndKeySteps({ receiver, ids }: AuditStepsEnv): Step[] {
  const { keep, id } = keeper(ids);
  return [
    {
      op: 'POST /api/v1/notification-channels',
      path: () => '/api/v1/notification-channels',
      body: () => ({
        key: 'ops',
        name: 'Ops',
        type: 'webhook',
        config: { url: `${receiver().url}/hook`, secret: SECRET },
      }),
      by: 'user',
      action: 'notification-channel.create',
      keep: keep('channel'),
    },
    {
      op: 'POST /api/v1/escalation-policies',
      path: () => '/api/v1/escalation-policies',
      body: () => ({ key: 'oncall', name: 'On call', steps: [{ afterMin: 0, channels: ['ops'] }] }),
      by: 'key',
      action: 'escalation-policy.create',
      keep: keep('policy'),
    },
    {
      op: 'PATCH /api/v1/escalation-policies/{id}',
      path: () => `/api/v1/escalation-policies/${ids.policy}`,
      body: () => ({ name: 'Night shift' }),
      by: 'user',
      action: 'escalation-policy.update',
      objectId: id('policy'),
    },
    {
      op: 'DELETE /api/v1/escalation-policies/{id}',
      path: () => `/api/v1/escalation-policies/oncall`,
      by: 'key',
      action: 'escalation-policy.delete',
      objectId: id('policy'),
    },
    {
      op: 'PATCH /api/v1/notification-channels/{key}',
      path: () => '/api/v1/notification-channels/ops',
      body: () => ({ name: 'Ops room', config: { secret: SECRET } }),
      by: 'key',
      action: 'notification-channel.update',
      objectId: id('channel'),
    },
    {
      op: 'POST /api/v1/notification-channels/{key}/secret',
      path: () => '/api/v1/notification-channels/ops/secret',
      by: 'key',
      action: 'notification-channel.rotate-secret',
      objectId: id('channel'),
    },
    // A preview writes nothing (it takes the write scope for the body limit of writes): no entry.
    {
      op: 'POST /api/v1/notification-channels/preview-template',
      path: () => '/api/v1/notification-channels/preview-template',
      body: () => ({ type: 'discord', template: { title: '{{title}}' } }),
      by: 'key',
      action: null,
    },
    {
      op: 'POST /api/v1/notification-channels/{key}/test',
      path: () => '/api/v1/notification-channels/ops/test',
      by: 'user',
      action: 'notification-channel.test',
      objectId: id('channel'),
    },
    {
      op: 'DELETE /api/v1/notification-channels/{key}',
      path: () => '/api/v1/notification-channels/ops',
      by: 'key',
      action: 'notification-channel.delete',
      objectId: id('channel'),
    },
    {
      op: 'POST /api/v1/api-keys',
      path: () => '/api/v1/api-keys',
      body: () => ({ name: 'ci', scope: 'read' }),
      by: 'user',
      action: 'api-key.create',
      keep: keep('apiKey'),
    },
    {
      op: 'DELETE /api/v1/api-keys/{id}',
      path: () => `/api/v1/api-keys/${ids.apiKey}`,
      by: 'key',
      action: 'api-key.revoke',
      objectId: id('apiKey'),
    },
  ];
}

/** Deleting what the earlier steps made, then members, invitations and organizations. */
function removalAndMemberSteps({ member, ids }: AuditStepsEnv): Step[] {
  const { keep, id } = keeper(ids);
  return [
    {
      op: 'DELETE /api/v1/monitors/{id}',
      path: () => `/api/v1/monitors/${ids.monitor}`,
      by: 'user',
      action: 'monitor.delete',
      objectId: id('monitor'),
    },
    {
      op: 'DELETE /api/v1/relays/{id}',
      path: () => `/api/v1/relays/${ids.relay}`,
      by: 'key',
      action: 'relay.delete',
      objectId: id('relay'),
    },
    {
      op: 'DELETE /api/v1/pages/{slug}',
      path: () => '/api/v1/pages/audited',
      by: 'user',
      action: 'page.delete',
      objectId: id('page'),
    },
    {
      op: 'POST /api/v1/invitations',
      path: () => '/api/v1/invitations',
      body: () => ({ email: 'guest@example.com', role: 'editor' }),
      by: 'key',
      action: 'invitation.create',
      keep: (answer) => {
        ids.invitation = (answer.invitation as { id: string }).id;
      },
    },
    {
      op: 'DELETE /api/v1/invitations/{id}',
      path: () => `/api/v1/invitations/${ids.invitation}`,
      by: 'user',
      action: 'invitation.revoke',
      objectId: id('invitation'),
    },
    {
      op: 'PATCH /api/v1/members/{userId}',
      path: () => `/api/v1/members/${member().userId}`,
      body: () => ({ role: 'editor' }),
      by: 'user',
      action: 'member.update',
      objectId: () => member().userId,
    },
    {
      op: 'DELETE /api/v1/members/{userId}',
      path: () => `/api/v1/members/${member().userId}`,
      by: 'key',
      action: 'member.remove',
      objectId: () => member().userId,
    },
    {
      op: 'POST /api/v1/organizations',
      path: () => '/api/v1/organizations',
      body: () => ({ key: 'audit-org', name: 'Audit' }),
      by: 'user',
      action: 'organization.create',
      keep: keep('organization'),
    },
    // Alpha is warden.yaml's (renaming it answers 409): the new one is renamed.
    {
      op: 'PATCH /api/v1/organization',
      path: () => '/api/v1/organization',
      body: () => ({ name: 'Audited' }),
      by: 'user',
      org: 'audit-org',
      action: 'organization.update',
      objectId: id('organization'),
    },
    {
      op: 'DELETE /api/v1/organization',
      path: () => '/api/v1/organization',
      body: () => ({ confirm: 'audit-org' }),
      by: 'user',
      org: 'audit-org',
      action: null,
    },
  ];
}
