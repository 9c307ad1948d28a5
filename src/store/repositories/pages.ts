// Status pages: slug, title, custom domain, password hash and AI policy.
import type { Selectable } from 'kysely';
import { EMPTY_BRANDING, type PageBranding } from '../../domain/branding.js';
import { parseDraftSetting } from '../../domain/incident-draft.js';
import type { PageLanguage } from '../../domain/languages.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Page, PageSpec } from '../../domain/page.js';
import type { DomainProof } from '../store.js';
import type { Db, PagesTable } from '../tables.js';
import { countOf } from './count.js';
import { notifyOf, storedNotify } from './monitor-rows.js';
import { deleteWhere, findOne, mapped, updateWhere } from './query.js';
import { toColumns } from './rows.js';

const toPage = (r: Selectable<PagesTable>): Page => ({
  id: r.id,
  organizationId: r.organization_id,
  slug: r.slug,
  title: r.title,
  description: r.description,
  customDomain: r.custom_domain,
  customDomainToken: r.custom_domain_token,
  customDomainVerifiedAt: r.custom_domain_verified_at === null ? null : Number(r.custom_domain_verified_at),
  customDomainCheckedAt: r.custom_domain_checked_at === null ? null : Number(r.custom_domain_checked_at),
  passwordHash: r.password_hash,
  aiPolicy: r.ai_policy,
  notify: notifyOf(r.notify),
  subscriptions: r.subscriptions === 1,
  showPlayerNames: r.show_player_names === 1,
  announceGameChanges: r.announce_game_changes === 1,
  publishUptimeHistory: r.publish_uptime_history === 1,
  showUnreachable: r.show_unreachable === 1,
  draftIncidents: parseDraftSetting(r.draft_incidents),
  language: r.language as PageLanguage | null,
  timeZone: r.time_zone,
  branding: brandingFromRow(r.branding),
  customCss: r.custom_css,
  managedBy: r.managed_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Stored branding, with today's defaults for what an older row lacks. */
function brandingFromRow(json: string): PageBranding {
  return { ...EMPTY_BRANDING, ...(JSON.parse(json) as Partial<PageBranding>) };
}

export interface PageRepository {
  /** Every page, or an organization's, by slug. */
  list(organizationId?: string): Promise<Page[]>;
  count(organizationId: string): Promise<number>;
  findById(id: string): Promise<Page | undefined>;
  findBySlug(slug: string): Promise<Page | undefined>;
  findByDomain(domain: string): Promise<Page | undefined>;
  insert(
    page: PageSpec & {
      id: string;
      organizationId: string;
      passwordHash: string | null;
      managedBy: ManagedBy;
    } & Partial<DomainProof>,
    now: number,
  ): Promise<void>;
  update(
    id: string,
    changes: Partial<PageSpec> & { passwordHash?: string | null; managedBy?: ManagedBy } & Partial<DomainProof>,
    now: number,
  ): Promise<void>;
  /**
   * Records a lookup of the page's verification record: `verifiedAt` (null: not proven) and the time checked, only while
   * the page still claims this domain with this token (false otherwise: it changed meanwhile). The page's `updatedAt`
   * moves when the verified state does.
   */
  recordDomainCheck(
    id: string,
    claim: { domain: string; token: string },
    verifiedAt: number | null,
    now: number,
  ): Promise<boolean>;
  delete(id: string): Promise<void>;
}

/** The columns `update` writes as they are given. */
const UPDATED_FIELDS = [
  'slug',
  'title',
  'description',
  'customDomain',
  'customDomainToken',
  'customDomainVerifiedAt',
  'customDomainCheckedAt',
  'aiPolicy',
  'language',
  'timeZone',
  'customCss',
  'passwordHash',
  'managedBy',
] as const;

export function pageRepository(db: Db): PageRepository {
  const one = async (column: 'id' | 'slug' | 'custom_domain', value: string) => {
    return mapped(await findOne(db, 'pages', { [column]: value }), toPage);
  };
  return {
    async list(organizationId) {
      let query = db.selectFrom('pages').selectAll();
      if (organizationId !== undefined) query = query.where('organization_id', '=', organizationId);
      return (await query.orderBy('slug').execute()).map(toPage);
    },
    count: (organizationId) => countOf(db.selectFrom('pages').where('organization_id', '=', organizationId)),
    findById: (id) => one('id', id),
    findBySlug: (slug) => one('slug', slug),
    findByDomain: (domain) => one('custom_domain', domain.toLowerCase()),
    async insert(page, now) {
      await db
        .insertInto('pages')
        .values({
          id: page.id,
          organization_id: page.organizationId,
          slug: page.slug,
          title: page.title,
          description: page.description,
          custom_domain: page.customDomain,
          custom_domain_token: page.customDomainToken ?? null,
          custom_domain_verified_at: page.customDomainVerifiedAt ?? null,
          custom_domain_checked_at: page.customDomainCheckedAt ?? null,
          password_hash: page.passwordHash,
          ai_policy: page.aiPolicy,
          notify: storedNotify(page.notify ?? null),
          subscriptions: page.subscriptions ? 1 : 0,
          show_player_names: page.showPlayerNames ? 1 : 0,
          announce_game_changes: page.announceGameChanges ? 1 : 0,
          publish_uptime_history: page.publishUptimeHistory ? 1 : 0,
          show_unreachable: page.showUnreachable ? 1 : 0,
          draft_incidents: page.draftIncidents ? JSON.stringify(page.draftIncidents) : null,
          language: page.language ?? null,
          time_zone: page.timeZone ?? 'UTC',
          branding: JSON.stringify(page.branding ?? EMPTY_BRANDING),
          custom_css: page.customCss ?? null,
          managed_by: page.managedBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    async update(id, changes, now) {
      // Kysely leaves out the columns whose value is undefined: only what `changes` names is written.
      await updateWhere(
        db,
        'pages',
        { id },
        {
          ...toColumns(changes, UPDATED_FIELDS),
          notify: changes.notify === undefined ? undefined : storedNotify(changes.notify),
          subscriptions: changes.subscriptions === undefined ? undefined : changes.subscriptions ? 1 : 0,
          show_player_names: changes.showPlayerNames === undefined ? undefined : changes.showPlayerNames ? 1 : 0,
          announce_game_changes:
            changes.announceGameChanges === undefined ? undefined : changes.announceGameChanges ? 1 : 0,
          publish_uptime_history:
            changes.publishUptimeHistory === undefined ? undefined : changes.publishUptimeHistory ? 1 : 0,
          show_unreachable: changes.showUnreachable === undefined ? undefined : changes.showUnreachable ? 1 : 0,
          draft_incidents:
            changes.draftIncidents === undefined
              ? undefined
              : changes.draftIncidents && JSON.stringify(changes.draftIncidents),
          branding: changes.branding === undefined ? undefined : JSON.stringify(changes.branding),
          updated_at: now,
        },
      );
    },
    async recordDomainCheck(id, claim, verifiedAt, now) {
      const result = await db
        .updateTable('pages')
        .set((eb) => ({
          custom_domain_verified_at: verifiedAt,
          custom_domain_checked_at: now,
          // The verified state is part of what the page serves (its domain): readers rebuild when it moves.
          updated_at:
            verifiedAt === null
              ? eb.case().when('custom_domain_verified_at', 'is not', null).then(now).else(eb.ref('updated_at')).end()
              : eb.case().when('custom_domain_verified_at', 'is', null).then(now).else(eb.ref('updated_at')).end(),
        }))
        .where('id', '=', id)
        .where('custom_domain', '=', claim.domain)
        .where('custom_domain_token', '=', claim.token)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async delete(id) {
      await deleteWhere(db, 'pages', { id });
    },
  };
}
