// /api/v1/escalation-policies: the organization's escalation policies (editors write, members read).
import { z } from '@hono/zod-openapi';
import {
  createPolicy,
  deletePolicy,
  listPolicies,
  policyCreateInput,
  policyPatchInput,
  policyViewSchema,
  readPolicy,
  requirePolicy,
  updatePolicy,
} from '../../../services/escalation/policies.js';
import type { App } from '../../env.js';
import { type ApiGuards, apiOperation, idOrKeyParam, listOperation } from './operation.js';

const Policy = policyViewSchema.openapi('EscalationPolicy');

export function escalationPolicyRoutes(app: App, guards: ApiGuards): void {
  const op = { tag: 'alerts', path: '/api/v1/escalation-policies' } as const;
  const one = { ...op, path: '/api/v1/escalation-policies/{id}' };
  const params = z.object({ id: idOrKeyParam('escalation policy', 'oncall') });
  const notFound = 'No escalation policy with this id or key in your organization.';
  const label = async (ctx: Parameters<typeof requirePolicy>[0], { id }: { id: string }) => {
    const policy = await requirePolicy(ctx, id);
    return { id: policy.id, label: policy.key };
  };
  listOperation(app, guards, {
    ...op,
    summary: 'List escalation policies',
    key: 'escalationPolicies',
    item: Policy,
    ok: 'The policies, by key.',
    run: (ctx) => listPolicies(ctx, {}),
  });
  apiOperation(app, guards, {
    ...op,
    method: 'post',
    scope: 'write',
    summary: 'Create an escalation policy',
    description:
      'Ordered steps `{ afterMin, channels }`: step 1 when an alert of a covered monitor opens, each next one if it is still open and unacknowledged after its minutes; the recovery goes to every channel a step reached.',
    body: policyCreateInput.openapi('EscalationPolicyCreate'),
    ok: { status: 201, schema: Policy, description: 'Created.' },
    run: createPolicy,
    audit: { action: 'escalation-policy.create', object: (_input, p) => ({ id: p.id, label: p.key }) },
  });
  apiOperation(app, guards, {
    ...one,
    method: 'get',
    scope: 'read',
    summary: 'Read an escalation policy',
    params,
    notFound,
    ok: { status: 200, schema: Policy, description: 'The policy.' },
    run: readPolicy,
  });
  apiOperation(app, guards, {
    ...one,
    method: 'patch',
    scope: 'write',
    summary: 'Change an escalation policy',
    description:
      'Alerts open already keep the steps they were sent and follow the new ones from here on. 409 for a policy warden.yaml manages (`escalationPolicies:`).',
    params,
    body: policyPatchInput.omit({ id: true }).openapi('EscalationPolicyPatch'),
    notFound,
    ok: { status: 200, schema: Policy, description: 'The policy as changed.' },
    run: updatePolicy,
    audit: { action: 'escalation-policy.update', object: (_input, p) => ({ id: p.id, label: p.key }), before: label },
  });
  apiOperation(app, guards, {
    ...one,
    method: 'delete',
    scope: 'write',
    summary: 'Delete an escalation policy',
    description:
      'Its open alerts stop escalating (a resolve still reaches the channels their steps reached). 409 for a policy warden.yaml manages.',
    params,
    notFound,
    ok: { status: 204, description: 'Deleted.' },
    run: deletePolicy,
    audit: { action: 'escalation-policy.delete', object: ({ id }) => ({ id: null, label: id }), before: label },
  });
}
