// /api/v1/organization: the organization a request acts for (with the caller's role), renamed by admins, deleted by an
// owner; POST /api/v1/organizations, where a signed-in user creates one and becomes its owner; and /api/v1/demo, where
// the operator's owner sees and removes the built-in demo.
import { createOrganization, organizationCreateSchema } from '../../../services/organizations/create.js';
import {
  getOrganization,
  organizationPatchSchema,
  organizationViewSchema,
  renameOrganization,
} from '../../../services/organizations/current.js';
import { deleteOrganization, organizationDeleteSchema } from '../../../services/organizations/delete.js';
import { demoStatus, demoStatusSchema, removeDemoAsOwner } from '../../../services/organizations/demo-standing.js';
import type { App } from '../../env.js';
import { authContext, authOperation, signedIn } from '../auth/operation.js';
import { keyedAudit } from './one-object.js';
import { type ApiGuards, apiOperation } from './operation.js';

const Organization = organizationViewSchema.openapi('Organization');
const managed = 'An organization warden.yaml declares (managedBy config) answers 409: the file names it.';

export function organizationRoutes(app: App, guards: ApiGuards): void {
  const op = { tag: 'organization', path: '/api/v1/organization' } as const;
  apiOperation(app, guards, {
    ...op,
    method: 'get',
    summary: 'The organization',
    description:
      'The organization this request acts for (a key’s, or the X-Warden-Organization header’s for a session) and the caller’s role in it.',
    scope: 'read',
    ok: { status: 200, schema: Organization, description: 'The organization.' },
    run: getOrganization,
  });
  apiOperation(app, guards, {
    ...op,
    method: 'patch',
    summary: 'Rename the organization, or set its monthly report',
    description: `The key stays. \`monthlyReport\` mails the owners last month's uptime report on the 1st. ${managed}`,
    scope: 'write',
    role: 'admin',
    body: organizationPatchSchema.openapi('OrganizationPatch'),
    ok: { status: 200, schema: Organization, description: 'The renamed organization.' },
    run: renameOrganization,
    audit: keyedAudit('organization.update'),
  });
  apiOperation(app, guards, {
    ...op,
    method: 'delete',
    summary: 'Delete the organization',
    description:
      'Deletes the organization and everything it holds — monitors and their history, pages (their addresses answer 404 at once), relays, API keys, notification channels, members, invitations and the audit log — for good. The body names its key again. ' +
      managed,
    scope: 'write',
    role: 'owner',
    body: organizationDeleteSchema.openapi('OrganizationDelete'),
    ok: { status: 204, description: 'Deleted.' },
    // No audit entry: the log goes with the organization (the server's log keeps the deletion).
    run: deleteOrganization,
  });

  authOperation(app, {
    method: 'post',
    path: '/api/v1/organizations',
    summary: 'Create an organization',
    description:
      "The signed-in user creates an organization and becomes its owner: allowed when anyone may sign up (WARDEN_SIGNUP=open) or when they own an organization already. API keys cannot. The keys `default`, `demo` and that of the config file the server applies are the operator's (400 naming `body.key`).",
    access: 'session',
    body: organizationCreateSchema.openapi('OrganizationCreate'),
    ok: { status: 201, schema: Organization, description: 'Created; the user is its owner.' },
    errors: {
      403: 'Sign-up is not open and the user owns no organization.',
      409: 'The key is taken, or the user belongs to as many organizations as one may.',
    },
    run: (c, input) => {
      const { user, session } = signedIn(c);
      const actor = {
        kind: 'user',
        userId: user.id,
        name: user.name || user.email,
        role: 'owner',
        sessionId: session.id,
      } as const;
      const accounts = c.var.deps.accounts;
      return createOrganization(
        {
          ...authContext(c),
          actor,
          signup: accounts?.signup ?? 'invite',
          fileOrganizationKey: accounts?.fileOrganizationKey,
        },
        input,
      );
    },
  });
  demoRoutes(app);
}

const DEMO_OWNER = 'an owner of every other organization of the server (the first-run setup makes its user one)';

function demoRoutes(app: App): void {
  authOperation(app, {
    method: 'get',
    path: '/api/v1/demo',
    summary: 'Whether the built-in demo is there',
    description: `Whether the built-in demo organization is on this server, and whether you may remove it here: ${DEMO_OWNER}. No API key: the demo belongs to no organization's key.`,
    access: 'session',
    ok: { status: 200, schema: demoStatusSchema.openapi('DemoStatus'), description: 'The demo, and your standing.' },
    run: (c) => demoStatus(authContext(c), { userId: signedIn(c).user.id }),
  });
  authOperation(app, {
    method: 'delete',
    path: '/api/v1/demo',
    summary: 'Remove the built-in demo',
    description: `Deletes the built-in demo organization with its monitors, page and history, as \`warden demo remove\` does. For ${DEMO_OWNER}. With no organization of your own left, the next start without a config file loads it again.`,
    access: 'session',
    ok: { status: 204, description: 'Removed.' },
    errors: { 403: `You are not ${DEMO_OWNER}.`, 404: 'The built-in demo is not there (removed already).' },
    run: async (c) => {
      await removeDemoAsOwner(authContext(c), { userId: signedIn(c).user.id });
    },
  });
}
