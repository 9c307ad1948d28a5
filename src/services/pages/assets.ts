// A page's uploaded images (its logo and favicon): stored with the page after their type is recognised from the bytes.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  BRANDING_LIMITS,
  PAGE_ASSET_NAMES,
  PAGE_ASSET_TYPES,
  type PageAssetName,
  type PageAssetType,
  pageAssetPath,
} from '../../domain/branding.js';
import { ValidationError, WardenError } from '../../domain/errors.js';
import { ACCEPTED_TYPES, imageTypeOf, TYPE_NAMES } from '../../domain/image-type.js';
import { type ServiceContext, withTransaction } from '../context.js';
import { requirePage } from './read.js';
import { changed } from './write.js';

/** The most bytes each image may have (413 beyond): read no further than this. */
export const ASSET_MAX_BYTES: Record<PageAssetName, number> = {
  logo: BRANDING_LIMITS.logoBytes,
  favicon: BRANDING_LIMITS.faviconBytes,
};

export const pageAssetNameSchema = z
  .enum(PAGE_ASSET_NAMES)
  .describe('logo: shown in the header instead of the title; favicon: the tab icon.');

export const pageAssetViewSchema = z.object({
  name: pageAssetNameSchema,
  contentType: z.enum(PAGE_ASSET_TYPES).describe('Recognised from the bytes, whatever type the upload declared.'),
  digest: z.string().describe('SHA-256 of the bytes, hex.'),
  path: z
    .string()
    .describe(
      'Page-relative and versioned (`/assets/logo?v=…`): under /s/{slug}, or at the root of the custom domain.',
    ),
});

export type PageAssetView = z.infer<typeof pageAssetViewSchema>;

/** An image over its cap: 413, naming the cap. */
export class AssetTooLargeError extends WardenError {
  readonly status = 413;
  readonly title = 'Body too large';
  readonly code = 'body-too-large';
  constructor(name: PageAssetName) {
    super(`A ${name} must be at most ${ASSET_MAX_BYTES[name] / 1024} KB (${ASSET_MAX_BYTES[name]} bytes).`);
  }
}

/** Stores the page's logo or favicon, replacing the one it had; page caches rebuild, and the page links the new version. */
export async function putPageAsset(
  ctx: ServiceContext,
  input: { slug: string; name: PageAssetName; body: Uint8Array },
): Promise<PageAssetView> {
  return withTransaction(ctx, async (tx) => {
    const page = await requirePage(tx, input.slug);
    const body = Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength);
    if (body.length > ASSET_MAX_BYTES[input.name]) throw new AssetTooLargeError(input.name);
    const contentType = acceptedType(input.name, body);
    const digest = createHash('sha256').update(body).digest('hex');
    await tx.store.pageAssets.put({
      pageId: page.id,
      name: input.name,
      contentType,
      body,
      digest,
      updatedAt: tx.clock.now(),
    });
    changed(tx, page);
    return viewOf(input.name, contentType, digest);
  });
}

/** Removes the page's logo or favicon (nothing to remove is not an error); its URL in the branding, if any, shows again. */
export async function deletePageAsset(
  ctx: ServiceContext,
  input: { slug: string; name: PageAssetName },
): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const page = await requirePage(tx, input.slug);
    if (await tx.store.pageAssets.delete(page.id, input.name)) changed(tx, page);
  });
}

export async function listPageAssets(ctx: ServiceContext, input: { slug: string }): Promise<PageAssetView[]> {
  const page = await requirePage(ctx, input.slug);
  return (await ctx.store.pageAssets.digests(page.id)).map((a) => viewOf(a.name, a.contentType, a.digest));
}

function acceptedType(name: PageAssetName, body: Buffer): PageAssetType {
  const accepted = ACCEPTED_TYPES[name];
  const expected = `expected ${accepted.map((type) => TYPE_NAMES[type]).join(', ')} (recognised from the bytes)`;
  if (body.length === 0)
    throw new ValidationError([{ path: 'body', message: `empty: ${expected}` }], `The ${name} is empty.`);
  const type = imageTypeOf(body);
  if (type === undefined)
    throw new ValidationError(
      [{ path: 'body', message: `not an image Warden takes: ${expected}` }],
      `The ${name} is not an image Warden takes.`,
    );
  if (!accepted.includes(type))
    throw new ValidationError(
      [{ path: 'body', message: `a ${TYPE_NAMES[type]} cannot be a ${name}: ${expected}` }],
      `The ${name} has the wrong type.`,
    );
  return type;
}

function viewOf(name: PageAssetName, contentType: PageAssetType, digest: string): PageAssetView {
  return { name, contentType, digest, path: pageAssetPath(name, digest) };
}
