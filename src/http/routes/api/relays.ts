// /api/v1/relays: list, read, create (with its token), rename, delete, and a new token.
import { z } from '@hono/zod-openapi';
import { relayLabel } from '../../../services/audit/labels.js';
import { getRelay, listRelays } from '../../../services/relays/read.js';
import { rotateRelayToken } from '../../../services/relays/rotate-token.js';
import { relayCreateSchema, relayPatchSchema } from '../../../services/relays/schema.js';
import { type RelayView, relayViewSchema } from '../../../services/relays/view.js';
import { createRelay, deleteRelay, updateRelay } from '../../../services/relays/write.js';
import type { App } from '../../env.js';
import { deletedAudit, deleteOne, keyedAudit, readOne } from './one-object.js';
import { type ApiGuards, apiOperation, idOrKeyParam, listOperation } from './operation.js';

const Relay = relayViewSchema.openapi('Relay');
const RelayWithToken = relayViewSchema
  .extend({ token: z.string().describe('The relay token (wdr_…), shown this once: give it to the relay agent.') })
  .openapi('RelayWithToken');
const withToken = ({ relay, token }: { relay: RelayView; token: string }) => ({ ...relay, token });
const RotatedRelayToken = RelayWithToken.extend({
  secretsWithheld: z
    .array(
      z.object({
        id: z.string(),
        key: z.string(),
        name: z.string(),
        fields: z
          .array(z.string())
          .describe('Its secret config fields the relay does not get (headers, password, apiKey, botToken).'),
      }),
    )
    .describe(
      "Monitors on this relay whose secrets the new token does not get: send each one's secrets again in full (PATCH /api/v1/monitors/{id}) or apply warden.yaml. Until then the relay reports them failed.",
    ),
}).openapi('RotatedRelayToken');

export function relayApiRoutes(app: App, guards: ApiGuards): void {
  const op = { tag: 'relays', path: '/api/v1/relays' } as const;
  listOperation(app, guards, {
    ...op,
    summary: 'List relays',
    key: 'relays',
    item: Relay,
    ok: 'The relays, by key.',
    run: listRelays,
  });
  apiOperation(app, guards, {
    ...op,
    method: 'post',
    summary: 'Create a relay',
    description: 'Returns the relay token this once; only its hash is kept.',
    scope: 'write',
    role: 'admin',
    body: relayCreateSchema.openapi('RelayCreate'),
    ok: { status: 201, schema: RelayWithToken, description: 'Created.' },
    run: createRelay,
    respond: withToken,
    audit: { action: 'relay.create', object: (_input, { relay }) => ({ id: relay.id, label: relay.key }) },
  });
  const params = z.object({ id: idOrKeyParam('relay', 'rly_8d2f6h1j3k5m7n9p') });
  const one = {
    ...op,
    path: '/api/v1/relays/{id}',
    params,
    notFound: 'No relay with this id or key in your organization.',
  } as const;
  apiOperation(app, guards, { ...one, ...readOne('relay', Relay), run: getRelay });
  apiOperation(app, guards, {
    ...one,
    method: 'patch',
    summary: 'Rename a relay',
    description: 'The key stays. Relays managed by warden.yaml answer 409.',
    scope: 'write',
    role: 'admin',
    body: relayPatchSchema.openapi('RelayPatch'),
    ok: { status: 200, schema: Relay, description: 'The changed relay.' },
    run: updateRelay,
    audit: keyedAudit('relay.update'),
  });
  apiOperation(app, guards, {
    ...one,
    ...deleteOne('relay'),
    description:
      'A relay that still runs monitors answers 409, as do relays managed by warden.yaml. Its token stops working at once.',
    role: 'admin',
    run: deleteRelay,
    audit: deletedAudit('relay.delete', relayLabel),
  });
  apiOperation(app, guards, {
    ...one,
    path: '/api/v1/relays/{id}/token',
    method: 'post',
    summary: 'Issue a new relay token',
    description:
      'Returns a new token this once; the previous one stops working at once. The API never shows secrets, so neither does the relay config served to this token: every secret set before the rotation is withheld from it (the monitors are listed in secretsWithheld) until it is sent again in full or warden.yaml is applied. `warden relays token` (the operator) withholds nothing.',
    scope: 'write',
    role: 'admin',
    ok: {
      status: 200,
      schema: RotatedRelayToken,
      description: 'The relay, its new token, and the monitors whose secrets must be sent again.',
    },
    run: rotateRelayToken,
    respond: ({ relay, token, secretsWithheld }) => ({ ...relay, token, secretsWithheld }),
    audit: { action: 'relay.rotate-token', object: (_input, { relay }) => ({ id: relay.id, label: relay.key }) },
  });
}
