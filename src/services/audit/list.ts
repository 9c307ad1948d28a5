// Reads the organization's audit log, newest first, a page at a time (a `before` cursor), filtered by actor or object.
import { z } from 'zod';
import { ACCOUNT_LIMITS, type AuditEntry } from '../../domain/account.js';
import { queryIntIn } from '../../domain/fields.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';

const CURSOR = /^(\d{1,15})\.(aud_[0-9a-z]{1,40})$/;

export const auditQuerySchema = z.object({
  before: z
    .string()
    .max(100)
    .refine((value) => decodeAuditCursor(value) !== undefined, { error: 'expected the `next` of a previous page' })
    .optional()
    .describe('The `next` of the previous page: entries older than its last one.'),
  limit: queryIntIn(1, ACCOUNT_LIMITS.auditPageMax)
    .default(50)
    .describe(`Entries per page (1 to ${ACCOUNT_LIMITS.auditPageMax}).`),
  actor: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only what this user (id), API key (id) or system part (`config`, `cli`) did.'),
  objectType: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Only entries about this type of object: `monitor`, `page`, `member`, …'),
  objectId: z.string().min(1).max(200).optional().describe('Only entries about this object.'),
});

export const auditEntryViewSchema = z.object({
  id: z.string(),
  at: z.number().int(),
  actor: z.object({
    kind: z.enum(['user', 'apiKey', 'system']),
    id: z
      .string()
      .describe(
        "The user's or API key's id; the system part's name (`config`: warden.yaml, `cli`: the warden command).",
      ),
    name: z.string().describe("The user's name, or the key's name, at the time."),
  }),
  action: z.string().describe('`monitor.create`, `page.update`, `member.remove`, `config.apply`, …'),
  object: z.object({
    type: z.string(),
    id: z.string().nullable(),
    label: z.string().nullable().describe('Its key, slug, title or email at the time.'),
  }),
  detail: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('What changed: the names of the fields set, or counts; never values of secrets.'),
});

export const auditPageSchema = z.object({
  entries: z.array(auditEntryViewSchema),
  next: z.string().nullable().describe('Pass as `before` for the next (older) page; null on the last page.'),
});

export type AuditEntryView = z.infer<typeof auditEntryViewSchema>;

export async function listAudit(
  ctx: ServiceContext,
  input: z.input<typeof auditQuerySchema>,
): Promise<z.infer<typeof auditPageSchema>> {
  const { before, limit, actor, objectType, objectId } = parseInput(auditQuerySchema, input);
  const entries = await ctx.store.audit.list({
    organizationId: organizationOf(ctx),
    before: before === undefined ? undefined : decodeAuditCursor(before),
    limit: limit + 1,
    actorId: actor,
    objectType,
    objectId,
  });
  const shown = entries.slice(0, limit);
  const last = shown[shown.length - 1];
  return { entries: shown.map(auditEntryView), next: entries.length > limit && last ? encodeAuditCursor(last) : null };
}

export function auditEntryView(e: AuditEntry): AuditEntryView {
  return {
    id: e.id,
    at: e.at,
    actor: { kind: e.actorKind, id: e.actorId, name: e.actorName },
    action: e.action,
    object: { type: e.objectType, id: e.objectId, label: e.objectLabel },
    detail: e.detail,
  };
}

function encodeAuditCursor(entry: { at: number; id: string }): string {
  return Buffer.from(`${entry.at}.${entry.id}`, 'latin1').toString('base64url');
}

function decodeAuditCursor(cursor: string): { at: number; id: string } | undefined {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  return match ? { at: Number(match[1]), id: match[2] as string } : undefined;
}
