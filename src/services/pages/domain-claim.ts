// Who may put a custom domain on a page, and what proof it then needs: one rule for the API and warden.yaml.
import { randomBytes } from 'node:crypto';
import { domainClaimProblem } from '../../domain/custom-domain.js';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import type { Page } from '../../domain/page.js';
import type { DomainProof } from '../../store/index.js';
import { organizationOf, type ServiceContext, writerOf } from '../context.js';

/** A new verification token: what `_warden.<domain>` must hold (TXT). Random, shown in the page's API view. */
export function newDomainToken(): string {
  return `wdv_${randomBytes(24).toString('base64url')}`;
}

/**
 * Checks that `domain` may go on the page (`current`, undefined for a new page) and returns the proof to write with it:
 * nothing when the claim stays as it is. `undefined` leaves the domain alone; null removes it.
 *
 * - Never the service's own host (WARDEN_BASE_URL), localhost or an IP literal: 400 naming `customDomain`.
 * - One page per domain across the server, whichever organization holds it: 409.
 * - Set through the API: unverified, with a new token, until the verify call finds the TXT record. Set by warden.yaml
 *   (the operator's): verified at once, no token.
 */
export async function claimDomain(
  ctx: ServiceContext,
  current: Page | undefined,
  domain: string | null | undefined,
  slug: string,
): Promise<Partial<DomainProof>> {
  if (domain === undefined) return {};
  if (domain === null)
    return current?.customDomain === null
      ? {}
      : { customDomainToken: null, customDomainVerifiedAt: null, customDomainCheckedAt: null };
  const problem = domainClaimProblem(domain, ctx.baseUrl);
  if (problem) throw new ValidationError([{ path: 'customDomain', message: problem }]);
  await assertDomainFree(ctx, domain, slug);
  const same = current?.customDomain === domain;
  if (writerOf(ctx) === 'config') {
    if (same && current.customDomainToken === null && current.customDomainVerifiedAt !== null) return {};
    return { customDomainToken: null, customDomainVerifiedAt: ctx.clock.now(), customDomainCheckedAt: null };
  }
  if (same) return {};
  return { customDomainToken: newDomainToken(), customDomainVerifiedAt: null, customDomainCheckedAt: null };
}

/** A custom domain serves one page only; another organization's page is not named. */
async function assertDomainFree(ctx: ServiceContext, domain: string, slug: string): Promise<void> {
  const holder = await ctx.store.pages.findByDomain(domain);
  if (!holder || holder.slug === slug) return;
  if (holder.organizationId === organizationOf(ctx))
    throw new ConflictError(`customDomain: ${domain} is already used by page "${holder.slug}"`);
  throw new ConflictError(`customDomain: ${domain} is already claimed by another page on this server`);
}

/** The 409 of a unique-constraint race on the domain (two claims at once). */
export function domainTaken(domain: string | null | undefined): string {
  return `customDomain: ${domain} is already claimed by another page on this server`;
}
