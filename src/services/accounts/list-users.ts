// Every user of the server with their organizations and roles: the operator's view (`warden users list`).
import type { Role, User } from '../../domain/account.js';
import type { ServiceContext } from '../context.js';

export interface UserListing extends User {
  organizations: { key: string; role: Role }[];
}

export async function listUsers(ctx: ServiceContext): Promise<UserListing[]> {
  const users = await ctx.store.users.list();
  const listed: UserListing[] = [];
  for (const user of users) {
    const memberships = await ctx.store.memberships.listByUser(user.id);
    listed.push({ ...user, organizations: memberships.map((m) => ({ key: m.organization.key, role: m.role })) });
  }
  return listed;
}
