// A member as the API shows them: who, with which role, since when.
import { z } from 'zod';
import { type Membership, ROLES, type User } from '../../domain/account.js';

export const memberViewSchema = z.object({
  id: z.string().describe("The user's id."),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  since: z.number().int().describe('When they joined the organization.'),
});

export type MemberView = z.infer<typeof memberViewSchema>;

export function memberView(membership: Membership, user: Pick<User, 'id' | 'email' | 'name'>): MemberView {
  return { id: user.id, email: user.email, name: user.name, role: membership.role, since: membership.createdAt };
}
