// /api/v1/invitations: pending invitations to the organization (admins): list, invite (the link shown once, mailed when
// the server sends mail), revoke. Accepting is the invitee's: /api/v1/auth/invitations.
import { z } from '@hono/zod-openapi';
import {
  createInvitation,
  invitationCreateSchema,
  invitationViewSchema,
  listInvitations,
  revokeInvitation,
} from '../../../services/invitations/manage.js';
import type { App } from '../../env.js';
import { type ApiGuards, apiOperation, idParam, listOperation } from './operation.js';

const Invitation = invitationViewSchema.openapi('Invitation');
const InvitationCreated = z
  .object({
    invitation: Invitation,
    link: z
      .string()
      .describe(
        'The invitation link (…/app/invite?token=wdi_…), shown this once: only its hash is kept. It works once.',
      ),
    mailed: z
      .boolean()
      .describe('Whether it was mailed to `email` (the server has an SMTP server and it took the mail).'),
  })
  .openapi('InvitationCreated');

export function invitationRoutes(app: App, guards: ApiGuards): void {
  const op = { tag: 'organization', path: '/api/v1/invitations', role: 'admin' } as const;
  listOperation(app, guards, {
    ...op,
    summary: 'List pending invitations',
    description: 'Invitations neither accepted nor revoked, newest first; expired ones too (`expired`), until revoked.',
    key: 'invitations',
    item: Invitation,
    ok: 'The pending invitations.',
    run: listInvitations,
  });
  apiOperation(app, guards, {
    ...op,
    method: 'post',
    summary: 'Invite someone',
    description:
      'Returns the link this once. With an `email`, only that address may accept it, and the link is mailed there when the server sends mail. Only owners invite owners.',
    scope: 'write',
    body: invitationCreateSchema.openapi('InvitationCreate'),
    ok: { status: 201, schema: InvitationCreated, description: 'Created.' },
    run: createInvitation,
    // The mail holds no transaction: the invitation commits first, then the mail goes and the entry is recorded.
    audit: {
      action: 'invitation.create',
      object: (_input, { invitation }) => ({ id: invitation.id, label: invitation.email }),
      detail: (_input, { invitation, mailed }) => ({ role: invitation.role, mailed }),
      outside: true,
    },
  });
  apiOperation(app, guards, {
    ...op,
    path: '/api/v1/invitations/{id}',
    method: 'delete',
    summary: 'Revoke an invitation',
    description: 'Its link stops working at once.',
    scope: 'write',
    params: z.object({ id: idParam('invitation', 'inv_2b4d6f8h1j3k5m7n') }),
    notFound: 'No pending invitation with this id in your organization.',
    ok: { status: 204, description: 'Revoked.' },
    run: revokeInvitation,
    audit: {
      action: 'invitation.revoke',
      object: (_input, invitation) => ({ id: invitation.id, label: invitation.email }),
      detail: (_input, { role }) => ({ role }),
    },
  });
}
