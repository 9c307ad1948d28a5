// Where a new owner's organizations come from: the first owner (first-run setup, `warden users create --role owner`)
// takes every organization but the built-in demo, or a new one; an open sign-up gets an organization of its own.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Actor, Role } from '../../domain/account.js';
import { stableKey, text } from '../../domain/fields.js';
import { DEMO_ORGANIZATION_KEY, isReservedOrganizationKey, type Organization } from '../../domain/organization.js';
import { recordAudit } from '../audit/record.js';
import type { ServiceContext } from '../context.js';
import { retireDemo } from '../organizations/demo.js';
import { putOrganization } from '../organizations/put.js';

/** The organization a first owner names when there is none yet (key `main`, name "My organization" when left out). */
export const firstOrganizationInput = z
  .object({
    key: stableKey()
      .refine((key) => key !== DEMO_ORGANIZATION_KEY, {
        error: `"${DEMO_ORGANIZATION_KEY}" is the built-in demo's key`,
      })
      .default('main'),
    name: text(200).default('My organization'),
  })
  .strict();

/**
 * Inside a transaction: every organization but the demo, or — when there is none — a new one from `wanted`. The demo
 * stays nobody's, so it goes on showing the same to everyone and is never mistaken for the operator's.
 */
export async function organizationsForFirstOwner(
  ctx: ServiceContext,
  wanted: z.output<typeof firstOrganizationInput>,
): Promise<Organization[]> {
  await ctx.store.exclusive('organization-keys');
  const existing = (await ctx.store.organizations.list()).filter((o) => o.key !== DEMO_ORGANIZATION_KEY);
  // The operator has an account and an organization now: the demo leaves the public pages and stops probing.
  await retireDemo(ctx);
  if (existing.length > 0) return existing;
  return [(await putOrganization(ctx, wanted)).organization];
}

/**
 * Inside a transaction: a new organization for an open sign-up, keyed after the email (`ada.lovelace@…` →
 * `ada-lovelace`), never with a key reserved for the operator (`default@…` gets `default-2`; `fileOrganizationKey`:
 * the key of the config file the server applies).
 */
export async function createOwnOrganization(
  ctx: ServiceContext,
  { email, name, fileOrganizationKey }: { email: string; name: string; fileOrganizationKey?: string | undefined },
): Promise<Organization> {
  // Two sign-ups wanting the same key wait for each other here, so neither takes (and renames) the other's organization.
  await ctx.store.exclusive('organization-keys');
  const key = await freeOrganizationKey(ctx, email.split('@')[0] ?? email, fileOrganizationKey);
  return (await putOrganization(ctx, { key, name: `${name}'s organization`.slice(0, 200) })).organization;
}

/** Makes the user a member of each organization with `role`, and says so in each one's audit log (`via`: how). */
export async function joinAll(
  ctx: ServiceContext,
  user: { id: string; name: string; email: string },
  organizations: readonly Organization[],
  role: Role,
  via: 'setup' | 'signup' | 'cli',
): Promise<void> {
  const now = ctx.clock.now();
  for (const organization of organizations) {
    await ctx.store.memberships.put({ organizationId: organization.id, userId: user.id, role, createdAt: now });
    const actor: Actor = ctx.actor ?? {
      kind: 'user',
      userId: user.id,
      name: user.name || user.email,
      role,
      sessionId: null,
    };
    await recordAudit(
      { ...ctx, organizationId: organization.id, actor },
      { action: 'member.add', id: user.id, label: user.email, detail: { role, via } },
    );
  }
}

/** Numbered keys tried (`ada`, `ada-2` … `ada-9`) before a random suffix. */
const NUMBERED_KEYS = 9;

async function freeOrganizationKey(
  ctx: ServiceContext,
  local: string,
  fileOrganizationKey: string | undefined,
): Promise<string> {
  const base =
    local
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^[-_]+|[-_]+$/g, '')
      .slice(0, 48) || 'team';
  const candidates = [base, ...Array.from({ length: NUMBERED_KEYS - 1 }, (_, i) => `${base}-${i + 2}`)];
  for (const key of candidates)
    if (!isReservedOrganizationKey(key, fileOrganizationKey) && !(await ctx.store.organizations.findByKey(key)))
      return key;
  return `${base}-${randomBytes(4).toString('hex')}`;
}
