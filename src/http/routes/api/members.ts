// /api/v1/members: who belongs to the organization (any member reads), their roles (admins change them; owners only by
// owners), and leaving or removing (the last owner stays).
import { z } from '@hono/zod-openapi';
import {
  changeMemberRole,
  listMembers,
  type MemberChange,
  memberPatchSchema,
  removeMember,
} from '../../../services/members/manage.js';
import { revokedMadeSchema } from '../../../services/members/revoke-made.js';
import { memberViewSchema } from '../../../services/members/view.js';
import type { App } from '../../env.js';
import { type ApiGuards, apiOperation, listOperation } from './operation.js';

const Member = memberViewSchema.openapi('Member');
const MemberChanged = memberViewSchema.extend(revokedMadeSchema.shape).openapi('MemberChange');

export function memberRoutes(app: App, guards: ApiGuards): void {
  const op = { tag: 'organization', path: '/api/v1/members' } as const;
  listOperation(app, guards, {
    ...op,
    summary: 'List members',
    description: 'Every member with their role, oldest first.',
    key: 'members',
    item: Member,
    ok: 'The members.',
    run: listMembers,
  });
  const one = {
    ...op,
    path: '/api/v1/members/{userId}',
    params: z.object({
      userId: z
        .string()
        .min(1)
        .max(200)
        .openapi({
          param: { name: 'userId', in: 'path', description: "The member's user id." },
          example: 'usr_5k8m2p4r6t8v1w3x',
        }),
    }),
    notFound: 'No member with this user id in your organization.',
  } as const;
  const member = (_input: unknown, m: MemberChange) => ({ id: m.id, label: m.email });
  const revoked = (m: MemberChange) => ({
    ...(m.revokedApiKeys.length > 0 ? { revokedApiKeys: m.revokedApiKeys.map((k) => k.id) } : {}),
    ...(m.revokedInvitations.length > 0 ? { revokedInvitations: m.revokedInvitations.map((i) => i.id) } : {}),
  });
  apiOperation(app, guards, {
    ...one,
    method: 'patch',
    summary: "Change a member's role",
    description:
      'Only owners make or unmake owners; the last owner cannot be demoted (409): make another member owner first. A lower role revokes the API keys and pending invitations the member made that act above it (a write key acts as an admin, a read key as a viewer), listed in the answer.',
    scope: 'write',
    role: 'admin',
    body: memberPatchSchema.openapi('MemberPatch'),
    ok: {
      status: 200,
      schema: MemberChanged,
      description: 'The member with their new role, and what was revoked with the change.',
    },
    run: changeMemberRole,
    audit: {
      action: 'member.update',
      object: member,
      detail: (_input, m) => ({ fields: ['role'], role: m.role, ...revoked(m) }),
    },
  });
  apiOperation(app, guards, {
    ...one,
    method: 'delete',
    summary: 'Remove a member',
    description:
      'Admins remove members (owners only by owners); any member may remove themselves (leave). The last owner cannot be removed (409). Their sessions stay, without this organization; every API key and pending invitation they made in it is revoked, and listed in the answer.',
    scope: 'write',
    // Leaving needs no role; removing another member needs admin, which the verb checks.
    role: 'viewer',
    ok: {
      status: 200,
      schema: MemberChanged,
      description: 'Removed: the member as they were, and what was revoked with them.',
    },
    run: removeMember,
    audit: { action: 'member.remove', object: member, detail: (_input, m) => ({ role: m.role, ...revoked(m) }) },
  });
}
