// Reads the organization's pages; another organization's page is "not found", never "forbidden".
import type { z } from 'zod';
import { NotFoundError } from '../../domain/errors.js';
import type { Page } from '../../domain/page.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import { pageSlugSchema } from './schema.js';
import { type PageView, pageView } from './view.js';

export async function listPages(ctx: ServiceContext): Promise<PageView[]> {
  return (await ctx.store.pages.list(organizationOf(ctx))).map(pageView);
}

export async function getPage(ctx: ServiceContext, input: z.input<typeof pageSlugSchema>): Promise<PageView> {
  return pageView(await requirePage(ctx, parseInput(pageSlugSchema, input).slug));
}

/** The organization's page by slug (its key), or by id (a slug wins a tie); another organization's is "not found". */
export async function requirePage(ctx: ServiceContext, slug: string): Promise<Page> {
  const organizationId = organizationOf(ctx);
  const bySlug = await ctx.store.pages.findBySlug(slug);
  const page = bySlug?.organizationId === organizationId ? bySlug : await ctx.store.pages.findById(slug);
  if (!page || page.organizationId !== organizationId) throw new NotFoundError('page', slug);
  return page;
}
