// The signed-in user's role in the organization the dashboard shows, so screens hide or grey out what it may not do
// (the API decides all the same: a 403 is shown, never assumed away).
import { type Membership, useOrganization } from './organization';
import type { Role } from './types';

const ORDER: readonly Role[] = ['viewer', 'editor', 'admin', 'owner'];

export function roleAtLeast(role: Role | undefined, least: Role): boolean {
  return role !== undefined && ORDER.indexOf(role) >= ORDER.indexOf(least);
}

/** The caller's role in the current organization, and their user id (to tell their own row apart). */
export function useOrganizationRole(): {
  role: Role | undefined;
  userId: string;
  organization: Membership | undefined;
} {
  const { me, organization } = useOrganization();
  return { role: organization?.role, userId: me.user.id, organization };
}

/** The roles a caller may give: owners give any, admins any but owner. */
export function grantableRoles(role: Role | undefined): Role[] {
  return role === 'owner' ? [...ORDER] : role === 'admin' ? ORDER.filter((r) => r !== 'owner') : [];
}
