// GET /api/v1/audit: the organization's audit log for admins, newest first, a page at a time.
import { ACCOUNT_LIMITS } from '../../../domain/account.js';
import { auditEntryViewSchema, auditPageSchema, auditQuerySchema, listAudit } from '../../../services/audit/list.js';
import type { App } from '../../env.js';
import { type ApiGuards, apiOperation } from './operation.js';

const AuditPage = auditPageSchema
  .extend({ entries: auditEntryViewSchema.openapi('AuditEntry').array() })
  .openapi('AuditPage');

export function auditRoutes(app: App, guards: ApiGuards): void {
  apiOperation(app, guards, {
    tag: 'audit',
    method: 'get',
    path: '/api/v1/audit',
    summary: 'The audit log',
    description: `Who — a user, an API key, warden.yaml (\`config\`) or the \`warden\` command (\`cli\`) — did what to which object, and when: every write of this API, newest first, ${ACCOUNT_LIMITS.auditPageMax} at most per page (\`next\` goes on). Kept ${ACCOUNT_LIMITS.auditRetentionDays} days.`,
    scope: 'read',
    role: 'admin',
    query: auditQuerySchema,
    ok: { status: 200, schema: AuditPage, description: 'A page of entries.' },
    run: listAudit,
  });
}
