// Registers a relay and issues its token; the token is returned once and only its hash is stored.
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import { findRelayById, findRelayByKey, insertRelay, listRelays, setRelayToken } from '../../store/relays.js';
import { API_LIMITS } from '../api-limits.js';
import { uniquely } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import type { RelayCreateInput } from './schema.js';
import { type RelayView, relayView } from './view.js';

export async function createRelay(
  { db, clock }: ServiceDeps,
  organizationId: string,
  input: RelayCreateInput,
): Promise<{ relay: RelayView; token: string }> {
  const now = clock.now();
  const token = generateSecret('relayToken');
  const taken = `a relay with key "${input.key}" already exists`;
  const relay = await uniquely(
    () =>
      db.transaction().execute(async (trx) => {
        if ((await listRelays(trx, organizationId)).length >= API_LIMITS.relaysPerOrganization)
          throw new ConflictError(`an organization has at most ${API_LIMITS.relaysPerOrganization} relays`);
        if (await findRelayByKey(trx, organizationId, input.key)) throw new ConflictError(taken);
        const id = newId('rly');
        await insertRelay(trx, { id, organizationId, key: input.key, name: input.name, managedBy: 'api', now });
        await setRelayToken(trx, id, { hash: hashSecret(token), prefix: displayPrefix(token) }, now);
        return findRelayById(trx, id);
      }),
    taken,
  );
  if (!relay) throw new Error('relay vanished after insert');
  // No monitor runs on a new relay yet, so nothing needs reloading.
  return { relay: relayView(relay), token };
}
