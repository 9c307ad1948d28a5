// Opsgenie: an API integration's alerts, created and closed by alias. Wire format:
//   authorization: GenieKey {apiKey}   content-type: application/json
//   POST {base}/v2/alerts   { message, alias, description, priority: P1 | P3 | P5, source: "Warden", entity,
//                              tags: ["warden", kind], details: { event, kind, organization, reason?, Monitor, Page… } }
//   POST {base}/v2/alerts/{alias}/close?identifierType=alias   { source: "Warden", note: title }
// {base} is https://api.opsgenie.com, https://api.eu.opsgenie.com for region eu, or apiUrl. The alias is
// alertPairing's key (the monitor, relay, incident, maintenance window or certificate host): a recovery closes the
// alert its down created, and a create retried or repeated under an open alias only adds to that alert's count.
// Opsgenie answers 202 and processes the request later; 429 and 5xx retry, other 4xx (a bad key, 422) are dead.
import { z } from 'zod';
import { clip } from '../events/format.js';
import { alertDetails, alertPairing } from './alert-pairing.js';
import { defineChannel, type NotificationEvent, type NotificationSeverity } from './channel.js';
import { endpointUrl, secretText } from './fields.js';
import { postRequest } from './http-send.js';
import { plainTextShape, type TextLimits } from './text-limits.js';

/** Opsgenie's limits: the message (the title) and the description (the whole text, the title first). */
const TEXT_LIMITS: TextLimits = { title: 130, body: 15_000 };
const opsgenieText = plainTextShape(true);

export const OPSGENIE_REGIONS = { us: 'https://api.opsgenie.com', eu: 'https://api.eu.opsgenie.com' } as const;

export const opsgenieChannel = defineChannel({
  type: 'opsgenie',
  label: 'Opsgenie',
  config: z
    .object({
      apiKey: secretText('Opsgenie API key').describe("An API integration's key (Settings → Integrations → API)."),
      region: z
        .enum(['us', 'eu'], { error: 'expected the region us or eu' })
        .default('us')
        .describe('Where the Opsgenie account lives: us (api.opsgenie.com) or eu (api.eu.opsgenie.com).'),
      apiUrl: endpointUrl('Opsgenie API URL')
        .optional()
        .describe("The API's base URL, instead of the region's (a proxy, or a test)."),
    })
    .strict(),
  secrets: ['apiKey'],
  targets: ['region', 'apiUrl'],
  // Opsgenie limits alert requests per account and integration: a couple at a time.
  maxInFlight: 2,
  textLimits: TEXT_LIMITS,
  text: opsgenieText,
  send: (event, config, ctx) => {
    const base = (config.apiUrl ?? OPSGENIE_REGIONS[config.region]).replace(/\/+$/, '');
    const headers = { authorization: `GenieKey ${config.apiKey}` };
    const { action, key } = alertPairing(event);
    if (action === 'close') {
      const url = `${base}/v2/alerts/${encodeURIComponent(key)}/close?identifierType=alias`;
      return postRequest({ url, headers, body: opsgenieClose(event) }, ctx);
    }
    return postRequest({ url: `${base}/v2/alerts`, headers, body: opsgenieAlert(event) }, ctx);
  },
});

/** Opsgenie's limit on the entity. */
const ENTITY_CHARS = 512;

const PRIORITY: Record<NotificationSeverity, 'P1' | 'P3' | 'P5'> = {
  critical: 'P1',
  warning: 'P3',
  info: 'P5',
  ok: 'P5',
};

export function opsgenieAlert(event: NotificationEvent) {
  const { monitor, relay, tls, incident, maintenance } = event;
  const entity = monitor?.name ?? relay?.name ?? tls?.host ?? incident?.title ?? maintenance?.title;
  const text = opsgenieText(event, TEXT_LIMITS);
  return {
    message: text.title,
    alias: alertPairing(event).key,
    description: text.body,
    priority: PRIORITY[event.severity],
    source: 'Warden',
    ...(entity ? { entity: clip(entity, ENTITY_CHARS) } : {}),
    tags: ['warden', event.kind],
    details: alertDetails(event),
  };
}

export function opsgenieClose(event: NotificationEvent) {
  return { source: 'Warden', note: event.title };
}
