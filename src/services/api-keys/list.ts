// Lists the organization's API keys, revoked ones included, oldest first.
import { listApiKeys as listStored } from '../../store/api-keys.js';
import type { Db } from '../../store/connect.js';
import { type ApiKeyView, apiKeyView } from './view.js';

export async function listApiKeys(db: Db, organizationId: string): Promise<ApiKeyView[]> {
  return (await listStored(db, organizationId)).map(apiKeyView);
}
