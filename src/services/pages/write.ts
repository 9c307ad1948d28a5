// Creates, changes and deletes pages, and puts warden.yaml's: one path for the API and the file. Passwords are stored hashed.
import type { z } from 'zod';
import { brandingOf } from '../../domain/branding.js';
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { LIMITS } from '../../domain/limits.js';
import { assertWritable } from '../../domain/ownership.js';
import type { Page } from '../../domain/page.js';
import { hashPassword, verifyPassword } from '../../domain/passwords.js';
import {
  organizationOf,
  parseInput,
  type ServiceContext,
  uniquely,
  withTransaction,
  writerOf,
  writeVerb,
} from '../context.js';
import { namedChannels } from '../notifications/named.js';
import { type PutOutcome, putByKey } from '../put.js';
import { claimDomain, domainTaken } from './domain-claim.js';
import { requirePage } from './read.js';
import { pageCreateSchema, pageEntrySchema, pageSlugSchema, pageUpdateSchema } from './schema.js';
import { type PageView, pageView } from './view.js';

type PageEntry = z.output<typeof pageEntrySchema>;

export async function createPage(ctx: ServiceContext, input: z.input<typeof pageCreateSchema>): Promise<PageView> {
  const entry = parseInput(pageCreateSchema, input);
  return pageView(await withTransaction(ctx, (tx) => insertPage(tx, entry)));
}

/** warden.yaml's page, by slug: created, or made to match the file (and taken over when the API made it). */
export const putPage = writeVerb(pageEntrySchema, async (tx, entry): Promise<{ page: Page; outcome: PutOutcome }> => {
  const current = await tx.store.pages.findBySlug(entry.slug);
  if (current && current.organizationId !== organizationOf(tx))
    throw new ConflictError(`page slug "${entry.slug}" belongs to another organization`);
  const { value: page, outcome } = await putByKey(tx, {
    label: `page "${entry.slug}"`,
    current,
    create: () => insertPage(tx, entry),
    spec: (current) => entrySpec(tx, current, entry),
    changed: (current, spec) => !spec.passwordSame || !fieldsSame(current, entry, spec),
    async update(current, { proof, notify, passwordSame }, writer) {
      await tx.store.pages.update(
        current.id,
        {
          title: entry.title,
          description: entry.description ?? null,
          customDomain: entry.customDomain ?? null,
          ...proof,
          aiPolicy: entry.aiPolicy,
          notify,
          subscriptions: entry.subscriptions,
          showPlayerNames: entry.showPlayerNames,
          announceGameChanges: entry.announceGameChanges,
          publishUptimeHistory: entry.publishUptimeHistory,
          showUnreachable: entry.showUnreachable,
          draftIncidents: entry.draftIncidents ?? null,
          ...presentationOf(entry),
          managedBy: writer,
          ...(passwordSame
            ? {}
            : { passwordHash: entry.password === undefined ? null : await hashPassword(entry.password) }),
        },
        tx.clock.now(),
      );
      changed(tx, current);
      return (await tx.store.pages.findById(current.id)) ?? current;
    },
  });
  return { page, outcome };
});

/** What a page entry resolves to over the stored page: the domain's proof to write, the channels named, whether the password is the same. */
interface EntrySpec {
  proof: Awaited<ReturnType<typeof claimDomain>>;
  notify: string[] | null;
  passwordSame: boolean;
}

async function entrySpec(ctx: ServiceContext, current: Page, entry: PageEntry): Promise<EntrySpec> {
  const proof = await claimDomain(ctx, current, entry.customDomain ?? null, entry.slug);
  const notify = (await namedChannels(ctx, entry.notify)) ?? null;
  const passwordSame =
    entry.password === undefined
      ? current.passwordHash === null
      : current.passwordHash !== null && (await verifyPassword(entry.password, current.passwordHash));
  return { proof, notify, passwordSame };
}

/** Whether the page's fields (its password and manager aside) are what the entry says. */
function fieldsSame(current: Page, entry: PageEntry, { proof, notify }: EntrySpec): boolean {
  return (
    current.title === entry.title &&
    current.description === (entry.description ?? null) &&
    current.customDomain === (entry.customDomain ?? null) &&
    Object.keys(proof).length === 0 &&
    current.aiPolicy === entry.aiPolicy &&
    current.subscriptions === entry.subscriptions &&
    current.showPlayerNames === entry.showPlayerNames &&
    current.announceGameChanges === entry.announceGameChanges &&
    current.publishUptimeHistory === entry.publishUptimeHistory &&
    current.showUnreachable === entry.showUnreachable &&
    JSON.stringify(current.draftIncidents) === JSON.stringify(entry.draftIncidents ?? null) &&
    current.language === (entry.language ?? null) &&
    current.timeZone === entry.timeZone &&
    JSON.stringify(current.branding) === JSON.stringify(brandingOf(entry.branding)) &&
    current.customCss === (entry.customCss ?? null) &&
    JSON.stringify(current.notify) === JSON.stringify(notify)
  );
}

export async function updatePage(ctx: ServiceContext, input: z.input<typeof pageUpdateSchema>): Promise<PageView> {
  const { slug, ...changes } = parseInput(pageUpdateSchema, input);
  // Hashed before the transaction: scrypt takes tens of milliseconds (on the thread pool), no lock is held meanwhile.
  const passwordHash = typeof changes.password === 'string' ? await hashPassword(changes.password) : null;
  const page = await withTransaction(ctx, (tx) =>
    uniquely(
      tx,
      async () => {
        const current = await requirePage(tx, slug);
        assertWritable(current, writerOf(tx), `page "${slug}"`);
        const proof = await claimDomain(tx, current, changes.customDomain, slug);
        const { password, notify: named, branding, ...fields } = changes;
        const notify = named === undefined ? {} : { notify: (await namedChannels(tx, named)) ?? null };
        const look = branding === undefined ? {} : { branding: brandingOf(branding, current.branding) };
        await tx.store.pages.update(
          current.id,
          { ...fields, ...look, ...notify, ...proof, ...(password !== undefined ? { passwordHash } : {}) },
          tx.clock.now(),
        );
        changed(tx, current);
        return (await tx.store.pages.findById(current.id)) ?? current;
      },
      domainTaken(changes.customDomain),
    ),
  );
  return pageView(page);
}

/** Deletes a page with its components, incidents and maintenance. */
export const deletePage = writeVerb(pageSlugSchema, async (tx, { slug }): Promise<void> => {
  const page = await requirePage(tx, slug);
  assertWritable(page, writerOf(tx), `page "${slug}"`);
  await tx.store.pages.delete(page.id);
  changed(tx, page);
});

async function insertPage(ctx: ServiceContext, entry: PageEntry): Promise<Page> {
  const organizationId = organizationOf(ctx);
  const passwordHash = entry.password === undefined ? null : await hashPassword(entry.password);
  const taken = `the slug "${entry.slug}" is already taken`;
  const page = await uniquely(
    ctx,
    async () => {
      if ((await ctx.store.pages.count(organizationId)) >= LIMITS.pagesPerOrganization)
        throw new ConflictError(`an organization has at most ${LIMITS.pagesPerOrganization} pages`);
      if (await ctx.store.pages.findBySlug(entry.slug)) throw new ConflictError(taken);
      const proof = await claimDomain(ctx, undefined, entry.customDomain ?? null, entry.slug);
      const id = newId('pg');
      await ctx.store.pages.insert(
        {
          id,
          organizationId,
          slug: entry.slug,
          title: entry.title,
          description: entry.description ?? null,
          customDomain: entry.customDomain ?? null,
          ...proof,
          aiPolicy: entry.aiPolicy,
          notify: (await namedChannels(ctx, entry.notify)) ?? null,
          subscriptions: entry.subscriptions,
          showPlayerNames: entry.showPlayerNames,
          announceGameChanges: entry.announceGameChanges,
          publishUptimeHistory: entry.publishUptimeHistory,
          showUnreachable: entry.showUnreachable,
          draftIncidents: entry.draftIncidents ?? null,
          ...presentationOf(entry),
          passwordHash,
          managedBy: writerOf(ctx),
        },
        ctx.clock.now(),
      );
      return (await ctx.store.pages.findById(id)) as Page;
    },
    taken,
  );
  changed(ctx, page);
  return page;
}

/** Language, time zone, branding and stylesheet of a whole entry (what it leaves out is the default). */
function presentationOf(entry: PageEntry): Pick<Page, 'language' | 'timeZone' | 'branding' | 'customCss'> {
  return {
    language: entry.language ?? null,
    timeZone: entry.timeZone,
    branding: brandingOf(entry.branding),
    customCss: entry.customCss ?? null,
  };
}

/** Page caches rebuild (or drop) the page. */
export function changed(ctx: ServiceContext, page: Pick<Page, 'id'>): void {
  ctx.bus.publish({ type: 'page.changed', at: ctx.clock.now(), pageId: page.id });
}
