// /api/v1/pages: list, read, create, change and delete status pages (by slug), and verify a page's custom domain.
import { z } from '@hono/zod-openapi';
import type { TxtLookup } from '../../../domain/custom-domain.js';
import { pageId } from '../../../services/audit/labels.js';
import { getPage, listPages } from '../../../services/pages/read.js';
import { pageCreateSchema, pagePatchSchema } from '../../../services/pages/schema.js';
import { verifyPageDomain } from '../../../services/pages/verify-domain.js';
import { pageViewSchema } from '../../../services/pages/view.js';
import { createPage, deletePage, updatePage } from '../../../services/pages/write.js';
import type { App } from '../../env.js';
import { changeOne, deletedAudit, deleteOne, keyedAudit, readOne } from './one-object.js';
import { type ApiGuards, apiOperation, listOperation, slugParam } from './operation.js';

const Page = pageViewSchema.openapi('Page');

/** `domainTxt`: the TXT lookup a custom domain is verified by. */
export function pageRoutes(app: App, guards: ApiGuards, domainTxt: TxtLookup): void {
  const op = { tag: 'pages', path: '/api/v1/pages' } as const;
  listOperation(app, guards, {
    ...op,
    summary: 'List pages',
    key: 'pages',
    item: Page,
    ok: 'The pages, by slug.',
    run: listPages,
  });
  apiOperation(app, guards, {
    ...op,
    method: 'post',
    summary: 'Create a page',
    description:
      'Slugs are unique across the server (they are public addresses). A password is stored hashed and never returned.',
    scope: 'write',
    body: pageCreateSchema.openapi('PageCreate'),
    ok: { status: 201, schema: Page, description: 'Created.' },
    run: createPage,
    audit: keyedAudit('page.create', 'slug'),
  });
  const one = {
    ...op,
    path: '/api/v1/pages/{slug}',
    params: z.object({ slug: slugParam }),
    notFound: 'No page with this slug or id in your organization.',
  } as const;
  apiOperation(app, guards, { ...one, ...readOne('page', Page), run: getPage });
  apiOperation(app, guards, {
    ...one,
    ...changeOne('page', pagePatchSchema.openapi('PagePatch'), Page),
    description: 'Changes the fields given; the slug stays. Pages managed by warden.yaml answer 409.',
    run: updatePage,
    audit: keyedAudit('page.update', 'slug'),
  });
  apiOperation(app, guards, {
    ...one,
    ...deleteOne('page'),
    description:
      'Deletes the page with its components, incidents and maintenance. Pages managed by warden.yaml answer 409.',
    run: deletePage,
    audit: deletedAudit('page.delete', pageId),
  });
  apiOperation(app, guards, {
    ...one,
    path: '/api/v1/pages/{slug}/domain/verify',
    method: 'post',
    summary: 'Verify a page’s custom domain',
    description:
      'A custom domain set through the API serves nothing until `_warden.<customDomain>` holds the page’s token as a DNS TXT record ' +
      '(see `customDomainVerification` in the page). This looks the record up now: found, the domain serves the page and the page is ' +
      'answered; not found, 409 `domain-not-verified` says what the record holds (a domain verified before stops serving). ' +
      'Verified domains are looked up again daily. Domains from warden.yaml are verified as written.',
    scope: 'write',
    ok: {
      status: 200,
      schema: Page,
      description: 'Verified: the page, with `customDomainVerification.state` verified.',
    },
    run: (ctx, input) => verifyPageDomain({ ...ctx, domainTxt }, input),
    // The DNS lookup holds no transaction; the entry follows a verification that went through.
    audit: {
      action: 'page.verify-domain',
      object: (_input, page) => ({ id: page.id, label: page.slug }),
      detail: (_input, page) => ({ customDomain: page.customDomain }),
      outside: true,
    },
  });
}
