// Proves a custom domain set through the API: `_warden.<domain>` must hold the page's token as a TXT record.
import type { z } from 'zod';
import {
  DomainNotVerifiedError,
  describeTxtAnswer,
  type TxtLookup,
  verificationOutcome,
  verificationRecordName,
} from '../../domain/custom-domain.js';
import { ConflictError } from '../../domain/errors.js';
import { parseInput, type ServiceContext, withTransaction } from '../context.js';
import { requirePage } from './read.js';
import { pageSlugSchema } from './schema.js';
import { type PageView, pageView } from './view.js';
import { changed } from './write.js';

/** The verbs' context with the TXT lookup (the server's resolvers, or the ones it was given). */
export interface DomainContext extends ServiceContext {
  domainTxt: TxtLookup;
}

/**
 * Looks the record up now. Found: the domain is verified and serves the page (answered with the page). Not found:
 * DomainNotVerifiedError saying what the record holds, and a domain verified before is not any more. DNS not
 * answering changes nothing (the same error, saying so).
 */
export async function verifyPageDomain(ctx: DomainContext, input: z.input<typeof pageSlugSchema>): Promise<PageView> {
  const { slug } = parseInput(pageSlugSchema, input);
  const page = await requirePage(ctx, slug);
  if (page.customDomain === null)
    throw new ConflictError(`page "${slug}" has no customDomain to verify; set one first`);
  // warden.yaml's domain: the operator's, verified as written.
  if (page.customDomainToken === null) return pageView(page);
  const claim = { domain: page.customDomain, token: page.customDomainToken };
  const name = verificationRecordName(claim.domain);
  const answer = await ctx.domainTxt(name);
  const outcome = verificationOutcome(answer, claim.token);
  if (outcome === 'unreachable')
    throw new DomainNotVerifiedError(`${describeTxtAnswer(name, answer)}; nothing changed, try again later`);
  const now = ctx.clock.now();
  const wasVerified = page.customDomainVerifiedAt !== null;
  const verifiedAt = outcome === 'verified' ? (page.customDomainVerifiedAt ?? now) : null;
  const fresh = await withTransaction(ctx, async (tx) => {
    if (!(await tx.store.pages.recordDomainCheck(page.id, claim, verifiedAt, now))) return undefined;
    if (wasVerified !== (verifiedAt !== null)) changed(tx, page);
    return tx.store.pages.findById(page.id);
  });
  if (!fresh) throw new ConflictError(`customDomain of page "${slug}" changed while it was being verified; call again`);
  if (outcome === 'missing')
    throw new DomainNotVerifiedError(
      `${describeTxtAnswer(name, answer)}. Publish a TXT record ${name} holding ${JSON.stringify(claim.token)} and call again.` +
        (wasVerified ? ' The domain no longer serves the page.' : ''),
    );
  if (!wasVerified) ctx.logger.info({ page: slug, domain: claim.domain }, 'custom domain verified');
  return pageView(fresh);
}
