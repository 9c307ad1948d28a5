// The room a page has for subscribers: the caps on confirmed ones and on those awaiting confirmation (per page and per
// asking client), and how a page is named in answers.
import { ConflictError, WardenError } from '../../domain/errors.js';
import type { Page } from '../../domain/page.js';
import { SUBSCRIBER_LIMITS } from '../../domain/subscriber.js';
import type { SubscriberContext } from './schema.js';

export interface PageRef {
  slug: string;
  title: string;
  url: string;
}

export function pageRef(ctx: SubscriberContext, page: Page): PageRef {
  return { slug: page.slug, title: page.title, url: `${ctx.baseUrl ?? ''}/s/${page.slug}` };
}

/** Too many subscriptions await confirmation (on the page, or asked for by this client). */
export class TooManyPendingError extends WardenError {
  readonly status = 429;
  readonly title = 'Too many pending subscriptions';
  readonly code = 'too-many-pending';
}

export /** The caps on what awaits confirmation, and on confirmed subscribers (checked again when one confirms). */
async function assertRoom(tx: SubscriberContext, page: Page, client: string, adding: boolean): Promise<void> {
  const { confirmed, pending } = await tx.store.subscribers.counts(page.id);
  if (confirmed >= SUBSCRIBER_LIMITS.confirmedPerPage) throw pageFull();
  if (adding && pending >= SUBSCRIBER_LIMITS.pendingPerPage)
    throw new TooManyPendingError(
      `This page has ${SUBSCRIBER_LIMITS.pendingPerPage} subscriptions awaiting confirmation; try again later.`,
    );
  if ((await tx.store.subscribers.countPendingRequestedBy(client)) >= SUBSCRIBER_LIMITS.pendingPerClient)
    throw new TooManyPendingError(
      `At most ${SUBSCRIBER_LIMITS.pendingPerClient} subscriptions may await confirmation from one address; confirm them, or try again later.`,
    );
}

export function pageFull(): ConflictError {
  return new ConflictError(`This page has as many subscribers as it may (${SUBSCRIBER_LIMITS.confirmedPerPage}).`);
}
