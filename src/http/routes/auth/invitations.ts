// Invitation links from the invited side: GET /api/v1/auth/invitations/{token} (a public preview) and
// POST /api/v1/auth/invitations/accept (the signed-in user joins).
import { z } from '@hono/zod-openapi';
import {
  acceptInvitation,
  acceptInvitationInput,
  invitationPreviewSchema,
  previewInvitation,
} from '../../../services/accounts/invitations.js';
import type { App } from '../../env.js';
import { authContext, authOperation, signedIn } from './operation.js';
import { Account } from './sign-in.js';

const gone =
  'The invitation was used (`…/invitation-used`), withdrawn (`…/invitation-revoked`) or has expired (`…/invitation-expired`).';

export function invitationRoutes(app: App): void {
  authOperation(app, {
    method: 'get',
    path: '/api/v1/auth/invitations/{token}',
    access: 'public',
    summary: 'What an invitation offers',
    description: 'Public, for the page an invitation link opens: the organization, the role, and whom it is for.',
    params: z.object({
      token: z
        .string()
        .min(1)
        .max(200)
        .openapi({
          param: { name: 'token', in: 'path', description: 'The invitation token (wdi_…) from the link.' },
          example: 'wdi_3q2-7Yx1aBcDeFgHiJkLmNoPqRsTuVwX',
        }),
    }),
    ok: { status: 200, schema: invitationPreviewSchema.openapi('InvitationPreview'), description: 'The invitation.' },
    errors: { 404: 'No invitation has this token.', 410: gone },
    run: (c, { token }) => previewInvitation(authContext(c), { token }),
  });

  authOperation(app, {
    method: 'post',
    path: '/api/v1/auth/invitations/accept',
    access: 'session',
    summary: 'Accept an invitation',
    description:
      'The signed-in user joins the invitation’s organization with its role (a member keeps a stronger role they hold). An invitation naming an email is for the user with that email only.',
    body: acceptInvitationInput.openapi('InvitationAccept'),
    ok: { status: 200, schema: Account, description: 'Joined: the user and their organizations.' },
    errors: {
      403: 'The invitation is for another email address.',
      404: 'No invitation has this token.',
      409: 'The organization or you are at the limit of members or organizations.',
      410: gone,
    },
    run: (c, body) => {
      const { user, session } = signedIn(c);
      return acceptInvitation(authContext(c), { token: body.token, userId: user.id, sessionId: session.id });
    },
  });
}
