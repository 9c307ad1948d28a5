// Microsoft Teams: a Workflows ("When a Teams webhook request is received") webhook posting an Adaptive Card. Wire format:
//   POST {url}   content-type: application/json
//   { type: "message", attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null,
//       content: { $schema, type: "AdaptiveCard", version: "1.4",
//                  body: [ TextBlock title (Bolder, coloured Attention/Warning/Good/Accent by severity),
//                          TextBlock reason?, FactSet [{ title, value }], TextBlock "<organization> · <time>" (subtle) ],
//                  actions: [{ type: "Action.OpenUrl", title: "Open <page>", url }] (when there is a page) } }] }
import { clip, eventFacts, footnote, pageLink, REASON_CHARS } from '../events/format.js';
import type { NotificationEvent, NotificationSeverity } from './channel.js';
import { reasonText } from './text-limits.js';
import { defineUrlChannel } from './url-channel.js';

export const teamsChannel = defineUrlChannel({
  type: 'teams',
  label: 'Microsoft Teams',
  url: {
    name: 'Teams Workflows webhook URL',
    help: "The Workflows webhook URL (the 'Post to a channel when a webhook request is received' template).",
  },
  // Workflows webhooks throttle bursts; two at a time keeps well under it.
  maxInFlight: 2,
  textLimits: { body: REASON_CHARS },
  message: teamsMessage,
});

const TITLE_COLOUR: Record<NotificationSeverity, string> = {
  critical: 'Attention',
  warning: 'Warning',
  info: 'Accent',
  ok: 'Good',
};

export function teamsMessage(event: NotificationEvent) {
  const page = pageLink(event);
  const text = reasonText(event, teamsChannel.textLimits);
  const facts = eventFacts(event).map((fact) => ({ title: fact.name, value: fact.value }));
  const body: unknown[] = [
    {
      type: 'TextBlock',
      text: text.title,
      size: 'Large',
      weight: 'Bolder',
      color: TITLE_COLOUR[event.severity],
      wrap: true,
    },
  ];
  if (text.body) body.push({ type: 'TextBlock', text: text.body, wrap: true });
  if (facts.length > 0) body.push({ type: 'FactSet', facts });
  body.push({ type: 'TextBlock', text: footnote(event), isSubtle: true, size: 'Small', wrap: true });
  const content = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    actions: page ? [{ type: 'Action.OpenUrl', title: clip(`Open ${page.title}`, 100), url: page.url }] : [],
  };
  return {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content }],
  };
}
