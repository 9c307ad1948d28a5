// /api/v1/pages/{slug}/assets: upload, list and remove a page's logo and favicon (raw image bodies, capped per image).
import { z } from '@hono/zod-openapi';
import { BRANDING_LIMITS, PAGE_ASSET_TYPES, type PageAssetName } from '../../../domain/branding.js';
import { pageId } from '../../../services/audit/labels.js';
import {
  ASSET_MAX_BYTES,
  AssetTooLargeError,
  deletePageAsset,
  listPageAssets,
  pageAssetNameSchema,
  pageAssetViewSchema,
  putPageAsset,
} from '../../../services/pages/assets.js';
import type { App } from '../../env.js';
import { type ApiGuards, apiOperation, slugParam } from './operation.js';

const PageAsset = pageAssetViewSchema.openapi('PageAsset');
const nameParam = pageAssetNameSchema.openapi({
  param: { name: 'name', in: 'path', description: 'logo or favicon.' },
  example: 'logo',
});

export function pageAssetRoutes(app: App, guards: ApiGuards): void {
  const notFound = 'No page with this slug or id in your organization.';
  apiOperation(app, guards, {
    tag: 'pages',
    method: 'get',
    path: '/api/v1/pages/{slug}/assets',
    params: z.object({ slug: slugParam }),
    notFound,
    summary: 'List a page’s uploaded images',
    scope: 'read',
    ok: {
      status: 200,
      schema: z.object({ assets: z.array(PageAsset) }),
      description: 'The logo and favicon the page has, if any.',
    },
    run: listPageAssets,
    respond: (assets) => ({ assets }),
  });
  const one = {
    tag: 'pages',
    path: '/api/v1/pages/{slug}/assets/{name}',
    params: z.object({ slug: slugParam, name: nameParam }),
    notFound,
  } as const;
  apiOperation(app, guards, {
    ...one,
    method: 'put',
    summary: 'Upload a page’s logo or favicon',
    description:
      `The raw image as the body, whatever Content-Type it declares: its type is recognised from its bytes (PNG, JPEG, WebP, GIF or SVG; ICO too for a favicon; 400 naming \`body\` otherwise). ` +
      `At most ${BRANDING_LIMITS.logoBytes / 1024} KB for a logo and ${BRANDING_LIMITS.faviconBytes / 1024} KB for a favicon (413 beyond, before the rest is read). ` +
      'It replaces the one the page had, and wins over `branding.logoUrl` / `branding.faviconUrl`; the page links it at a versioned path, cached for good. ' +
      'Images are not part of warden.yaml, so a page it manages takes them too. An SVG is only ever shown as an image, and served sandboxed.',
    scope: 'write',
    rawBody: {
      // The types it recognises, and any other: the bytes decide, not the declared type.
      mediaTypes: [...PAGE_ASSET_TYPES, 'application/octet-stream'],
      description: 'The image bytes.',
      maxBytes: ({ name }: { name: PageAssetName }) => ASSET_MAX_BYTES[name],
      tooLarge: ({ name }: { name: PageAssetName }) => new AssetTooLargeError(name),
    },
    ok: { status: 200, schema: PageAsset, description: 'Stored: its type, digest and versioned path.' },
    run: (ctx, input) => putPageAsset(ctx, input as typeof input & { body: Buffer }),
    audit: {
      action: 'page.upload-asset',
      object: () => ({ id: null, label: null }),
      before: pageId,
      detail: ({ name }, asset) => ({ name, contentType: asset.contentType }),
    },
  });
  apiOperation(app, guards, {
    ...one,
    method: 'delete',
    summary: 'Remove a page’s logo or favicon',
    description:
      'The page shows its `branding.logoUrl` / `branding.faviconUrl` again, or none. Removing an image the page does not have changes nothing.',
    scope: 'write',
    ok: { status: 204, description: 'Removed (or there was none).' },
    run: deletePageAsset,
    audit: {
      action: 'page.delete-asset',
      object: () => ({ id: null, label: null }),
      before: pageId,
      detail: ({ name }) => ({ name }),
    },
  });
}
