// Images stored with a page (its uploaded logo and favicon), as base64 text: one column type on both dialects.
import type { PageAsset, PageAssetName, PageAssetType } from '../../domain/branding.js';
import type { Db } from '../tables.js';
import { deleteWhere, findOne } from './query.js';

export interface PageAssetRepository {
  get(pageId: string, name: PageAssetName): Promise<PageAsset | undefined>;
  /** Name and digest of each of the page's assets, without their bytes (what a snapshot links to). */
  digests(pageId: string): Promise<{ name: PageAssetName; digest: string; contentType: PageAssetType }[]>;
  /** Stores the asset, replacing the one of that name. */
  put(asset: PageAsset): Promise<void>;
  /** False when the page had no asset of that name. */
  delete(pageId: string, name: PageAssetName): Promise<boolean>;
}

export function pageAssetRepository(db: Db): PageAssetRepository {
  return {
    async get(pageId, name) {
      const row = await findOne(db, 'page_assets', { page_id: pageId, name });
      return (
        row && {
          pageId: row.page_id,
          name: row.name as PageAssetName,
          contentType: row.content_type as PageAssetType,
          body: Buffer.from(row.body, 'base64'),
          digest: row.digest,
          updatedAt: Number(row.updated_at),
        }
      );
    },
    async digests(pageId) {
      const rows = await db
        .selectFrom('page_assets')
        .select(['name', 'digest', 'content_type'])
        .where('page_id', '=', pageId)
        .orderBy('name')
        .execute();
      return rows.map((r) => ({
        name: r.name as PageAssetName,
        digest: r.digest,
        contentType: r.content_type as PageAssetType,
      }));
    },
    async put(asset) {
      const values = {
        content_type: asset.contentType,
        body: asset.body.toString('base64'),
        digest: asset.digest,
        size: asset.body.length,
        updated_at: asset.updatedAt,
      };
      await db
        .insertInto('page_assets')
        .values({ page_id: asset.pageId, name: asset.name, ...values })
        .onConflict((oc) => oc.columns(['page_id', 'name']).doUpdateSet(values))
        .execute();
    },
    delete: async (pageId, name) => (await deleteWhere(db, 'page_assets', { page_id: pageId, name })) > 0,
  };
}
