// PagerDuty: Events API v2 on a service's integration (routing) key. Wire format:
//   POST {apiUrl}/v2/enqueue   content-type: application/json
//   trigger: { routing_key, event_action: "trigger", dedup_key, client: "Warden", client_url?, links?: [{ href, text }],
//              payload: { summary, source, severity, timestamp, component?, group, class, custom_details } }
//   resolve: { routing_key, event_action: "resolve", dedup_key }
//   POST {apiUrl}/v2/change/enqueue   maintenance windows, as change events (no one is paged):
//            { routing_key, payload: { summary, timestamp, source, custom_details }, links? }
// dedup_key is alertPairing's key (the monitor, relay, incident or certificate host), so a recovery resolves the alert
// its down opened, and a retried trigger joins the alert it already opened. 202 is sent; 400 dead; 429 and 5xx retry.
import { z } from 'zod';
import { pageLink } from '../events/format.js';
import { alertDetails, alertPairing } from './alert-pairing.js';
import { defineChannel, type NotificationEvent, type NotificationSeverity } from './channel.js';
import { endpointUrl } from './fields.js';
import { postRequest } from './http-send.js';
import { type ChannelText, cut, type TextLimits } from './text-limits.js';

/** PagerDuty's summary (the title, then the reason) takes up to 1024 characters. */
const TEXT_LIMITS: TextLimits = { title: 1024 };

const KEY_MESSAGE = 'expected the 32-character integration key (routing key) of an Events API v2 integration';

export const pagerdutyChannel = defineChannel({
  type: 'pagerduty',
  label: 'PagerDuty',
  config: z
    .object({
      routingKey: z
        .string({ error: KEY_MESSAGE })
        .regex(/^[A-Za-z0-9]{32}$/, { error: KEY_MESSAGE })
        .describe("The service's Events API v2 integration key (routing key)."),
      apiUrl: endpointUrl('PagerDuty Events API URL')
        .default('https://events.pagerduty.com')
        .describe('The Events API base URL (default https://events.pagerduty.com).'),
    })
    .strict(),
  secrets: ['routingKey'],
  targets: ['apiUrl'],
  // The Events API allows about 120 events a minute per integration key.
  maxInFlight: 2,
  textLimits: TEXT_LIMITS,
  text: pagerdutyText,
  send: (event, config, ctx) => {
    const base = config.apiUrl.replace(/\/+$/, '');
    const pairing = alertPairing(event);
    if (pairing.notice)
      return postRequest({ url: `${base}/v2/change/enqueue`, body: pagerdutyChange(event, config.routingKey) }, ctx);
    return postRequest({ url: `${base}/v2/enqueue`, body: pagerdutyEvent(event, config.routingKey) }, ctx);
  },
});

/** The summary an alert is titled with (the title and the reason on one line), and the reason in its details. */
function pagerdutyText(event: NotificationEvent, limits: TextLimits): ChannelText {
  const summary = cut(event.reason ? `${event.title}: ${event.reason}` : event.title, limits.title);
  const body = cut(event.reason ?? '', limits.body);
  return { title: summary.text, body: body.text, clipped: { title: summary.clipped, body: body.clipped } };
}

const SEVERITY: Record<NotificationSeverity, 'critical' | 'warning' | 'info'> = {
  critical: 'critical',
  warning: 'warning',
  info: 'info',
  ok: 'info',
};

/** The alert event: a trigger, or a resolve of the alert under the same dedup_key. */
export function pagerdutyEvent(event: NotificationEvent, routingKey: string) {
  const { action, key } = alertPairing(event);
  if (action === 'close') return { routing_key: routingKey, event_action: 'resolve', dedup_key: key };
  const page = pageLink(event);
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: key,
    payload: {
      summary: summaryOf(event),
      source: sourceOf(event),
      severity: SEVERITY[event.severity],
      timestamp: new Date(event.at).toISOString(),
      ...(event.monitor ? { component: event.monitor.name } : {}),
      group: event.organization.name,
      class: event.kind,
      custom_details: alertDetails(event),
    },
    client: 'Warden',
    ...(page ? { client_url: page.url, links: [{ href: page.url, text: page.title }] } : {}),
  };
}

/** A change event: shown on the service's timeline, never paging anyone. */
export function pagerdutyChange(event: NotificationEvent, routingKey: string) {
  const page = pageLink(event);
  return {
    routing_key: routingKey,
    payload: {
      summary: summaryOf(event),
      timestamp: new Date(event.at).toISOString(),
      source: sourceOf(event),
      custom_details: alertDetails(event),
    },
    ...(page ? { links: [{ href: page.url, text: page.title }] } : {}),
  };
}

function summaryOf(event: NotificationEvent): string {
  return pagerdutyText(event, TEXT_LIMITS).title;
}

/** Where it happened: the monitor's, relay's or certificate's name for it, else the organization. */
function sourceOf(event: NotificationEvent): string {
  return event.monitor?.key ?? event.relay?.key ?? event.tls?.host ?? event.organization.key;
}
