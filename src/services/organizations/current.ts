// The organization a caller acts for, as the API shows it (with the caller's role in it), and renaming it.
import { z } from 'zod';
import { ROLES, type Role } from '../../domain/account.js';
import { NotFoundError } from '../../domain/errors.js';
import { text } from '../../domain/fields.js';
import type { Organization } from '../../domain/organization.js';
import { assertWritable, MANAGED_BY } from '../../domain/ownership.js';
import { organizationOf, type ServiceContext, writerOf, writeVerb } from '../context.js';

export const organizationViewSchema = z.object({
  id: z.string(),
  key: z.string().describe('Its stable key: what the X-Warden-Organization header and warden.yaml name it by.'),
  name: z.string(),
  createdAt: z.number().int(),
  managedBy: z
    .enum(MANAGED_BY)
    .describe(
      'config: warden.yaml declares it, so only the file renames it, and it cannot be deleted through the API.',
    ),
  role: z.enum(ROLES).describe("The caller's role in it (a write key acts as an admin, a read key as a viewer)."),
  monthlyReport: z
    .boolean()
    .describe("Whether its owners are mailed the last month's uptime report on the 1st (UTC; docs/reports.md)."),
});

export type OrganizationView = z.infer<typeof organizationViewSchema>;

export const organizationPatchSchema = z
  .object({
    name: text(200).optional(),
    monthlyReport: z
      .boolean()
      .optional()
      .describe("Mail the owners last month's uptime report on the 1st (needs the system SMTP server)."),
  })
  .strict();

export async function getOrganization(ctx: ServiceContext): Promise<OrganizationView> {
  const organization = await requireOrganization(ctx);
  return organizationView(organization, callerRole(ctx));
}

/**
 * Renames it (admin); an organization warden.yaml manages answers 409 to that: the file names it. The monthly report
 * is a setting of the API's on any organization.
 */
export const renameOrganization = writeVerb(
  organizationPatchSchema,
  async (tx, { name, monthlyReport }): Promise<OrganizationView> => {
    let organization = await requireOrganization(tx);
    if (name !== undefined) {
      assertWritable(organization, writerOf(tx), `organization "${organization.key}"`);
      ({ organization } = await tx.store.organizations.upsert(
        { id: organization.id, key: organization.key, name },
        tx.clock.now(),
      ));
    }
    if (monthlyReport !== undefined && monthlyReport !== organization.monthlyReport) {
      await tx.store.organizations.setMonthlyReport(organization.id, monthlyReport, tx.clock.now());
      organization = { ...organization, monthlyReport };
    }
    return organizationView(organization, callerRole(tx));
  },
);

export async function requireOrganization(ctx: ServiceContext): Promise<Organization> {
  const id = organizationOf(ctx);
  const organization = await ctx.store.organizations.findById(id);
  if (!organization) throw new NotFoundError('organization', id);
  return organization;
}

/** The caller's role: the member's, or the one their key's scope maps to; Warden itself acts as an owner. */
export function callerRole(ctx: ServiceContext): Role {
  return ctx.actor === undefined || ctx.actor.kind === 'system' ? 'owner' : ctx.actor.role;
}

export function organizationView(organization: Organization, role: Role): OrganizationView {
  return {
    id: organization.id,
    key: organization.key,
    name: organization.name,
    createdAt: organization.createdAt,
    managedBy: organization.managedBy,
    role,
    monthlyReport: organization.monthlyReport,
  };
}
