// The phone and pager pictures in docs/notifications.md (loaded by test/doc-screenshots.ts): what the Pushover, Gotify
// and Twilio channels really sent a fake receiver for a monitor going down and coming back, drawn on three phones, and
// what PagerDuty and Opsgenie were sent, drawn as the incident and the alert they make — small HTML renderings after
// each app's look, not captures of the apps. The recovery is sent 4 min 12 s after the down, as its downtime says.
import type { Page } from 'playwright-core';
import type { NotificationEvent } from '../src/notify/channels/channel.js';
import { gotifyChannel } from '../src/notify/channels/gotify.js';
import { opsgenieChannel } from '../src/notify/channels/opsgenie.js';
import { pagerdutyChannel } from '../src/notify/channels/pagerduty.js';
import { pushoverChannel } from '../src/notify/channels/pushover.js';
import { twilioChannel } from '../src/notify/channels/twilio.js';
import { channelRequests, escapeHtml, fontFaces, markdownHtml, shoot, withEmoji } from './doc-screenshot-parts.js';
import { AT, DOWN_EVENT, RECOVERED_EVENT, type ReceivedRequest } from './fakes/notify-receivers.js';

const EVENTS: NotificationEvent[] = [DOWN_EVENT, { ...RECOVERED_EVENT, at: AT + 252_000 }];
const clock = (at: number) => new Date(at).toISOString().slice(11, 16);
const at = (i: number) => (EVENTS[i] as NotificationEvent).at;

function html(css: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${fontFaces()}
    body{margin:0;font-family:Inter,sans-serif;color:#1f2328;background:#eef0f3}
    #phones,#pagers{display:flex;gap:20px;padding:20px;align-items:flex-start;width:max-content}
    ${css}</style></head><body>${withEmoji(body)}</body></html>`;
}

function phone(bar: string, title: string, content: string): string {
  return `<div class="phone"><div class="status"><span>14:09</span><span>▮▮▮ 5G</span></div>
    <div class="appbar" style="${bar}">${title}</div><div class="screen">${content}</div></div>`;
}

const PHONE_CSS = `.phone{width:300px;height:600px;background:#fff;border:10px solid #1f2328;border-radius:36px;overflow:hidden;display:flex;flex-direction:column}
  .status{display:flex;justify-content:space-between;padding:8px 20px 4px;font-size:12px;font-weight:600}
  .appbar{padding:12px 16px;font-size:17px;font-weight:600}.screen{flex:1;overflow:hidden;padding:10px}
  .card{border-radius:10px;padding:10px 12px;margin-bottom:10px;background:#fff;box-shadow:0 1px 3px rgba(0,0,0,.18);font-size:13px;line-height:1.4}
  .card .top{display:flex;justify-content:space-between;gap:8px}.card .t{font-weight:700;font-size:14px}.card .when{color:#6b7280;font-size:11px;flex:none}
  .pre{white-space:pre-wrap;margin-top:4px}.link{color:#1a73e8;margin-top:6px;font-weight:600}
  .md p{margin:4px 0}.md ul{margin:4px 0;padding-left:18px}.md a{color:#3f51b5;text-decoration:none}.md em{color:#6b7280}
  .bubble{background:#e9e9eb;border-radius:18px;padding:8px 12px;margin:4px 40px 10px 0;font-size:14px;line-height:1.35;word-break:break-word}
  .bubble a{color:#0a66d8}.stamp{text-align:center;color:#8e8e93;font-size:11px;margin:8px 0 4px}`;

/** Gotify's Markdown as its app renders Warden's message: paragraphs, "- " lists, **bold**, _italic_, links. */
function gotifyMarkdown(text: string): string {
  const inline = (line: string) =>
    markdownHtml(line, '')
      .replace(/\*\*(.+?)\*\*/g, '<b>$1</b>')
      .replace(/^_(.+)_$/, '<em>$1</em>');
  return text
    .split('\n\n')
    .map((block) =>
      block.startsWith('- ')
        ? `<ul>${block
            .split('\n')
            .map((item) => `<li>${inline(item.slice(2))}</li>`)
            .join('')}</ul>`
        : `<p>${inline(block)}</p>`,
    )
    .join('');
}

async function phones(page: Page): Promise<void> {
  const keys = { token: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi', user: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG' };
  const pushover = await channelRequests(pushoverChannel, (o) => ({ ...keys, apiBaseUrl: o }), EVENTS);
  const gotify = await channelRequests(gotifyChannel, (o) => ({ url: o, token: 'AbCdEf1234567.8' }), EVENTS);
  const twilio = await channelRequests(
    twilioChannel,
    (o) => ({ accountSid: `AC${'0'.repeat(32)}`, authToken: 't', from: '+14155550100', to: '+14155550199', apiUrl: o }),
    EVENTS,
    { status: 201, body: '{"sid":"SM1","status":"queued"}' },
  );
  type Push = { title: string; message: string; priority: number; timestamp: number; url?: string; url_title?: string };
  // Newest first, as both apps list them; Pushover shows a high-priority message's title in red.
  const pushCards = pushover
    .map((r) => r.json as Push)
    .reverse()
    .map(
      (
        m,
      ) => `<div class="card"><div class="top"><span class="t" style="${m.priority > 0 ? 'color:#e74c3c' : ''}">${escapeHtml(m.title)}</span>
        <span class="when">${clock(m.timestamp * 1000)}</span></div><div class="pre">${escapeHtml(m.message)}</div>
        ${m.url_title ? `<div class="link">${escapeHtml(m.url_title)}</div>` : ''}</div>`,
    )
    .join('');
  type Gotify = { title: string; message: string };
  const gotifyCards = gotify
    .map((r, i) => ({ message: r.json as Gotify, i }))
    .reverse()
    .map(
      ({ message, i }) => `<div class="card"><div class="top"><span class="t">${escapeHtml(message.title)}</span>
        <span class="when">${clock(at(i))}</span></div><div class="md">${gotifyMarkdown(message.message)}</div></div>`,
    )
    .join('');
  const sms = twilio
    .map((r, i) => {
      const body = new URLSearchParams(r.raw).get('Body') ?? '';
      const linked = escapeHtml(body).replace(/(https?:\/\/\S+)$/, '<a>$1</a>');
      return `<div class="stamp">Today ${clock(at(i))}</div><div class="bubble">${linked}</div>`;
    })
    .join('');
  const body = `<div id="phones">
    ${phone('background:#249df1;color:#fff', 'Pushover', pushCards)}
    ${phone('background:#3f51b5;color:#fff', 'Gotify · Warden', gotifyCards)}
    ${phone('border-bottom:1px solid #e5e5ea;text-align:center', '+1 (415) 555-0100', sms)}</div>`;
  await shoot(page, html(PHONE_CSS, body), '#phones', 'notify-phones.png', ['#e74c3c', '#249df1', '#3f51b5']);
}

const PAGER_CSS = `.panel{width:470px;background:#fff;border:1px solid #d7dbe0;border-radius:6px;overflow:hidden;font-size:13px}
  .head{padding:10px 16px;color:#fff;font-weight:700;font-size:15px}.inner{padding:14px 16px}
  .badge{display:inline-block;color:#fff;font-size:11px;font-weight:700;padding:2px 8px;border-radius:10px;margin-right:6px;text-transform:uppercase}
  h2{font-size:16px;margin:10px 0 12px;line-height:1.35}
  dl{display:grid;grid-template-columns:110px 1fr;gap:5px 10px;margin:0 0 12px}dt{color:#6b7280}dd{margin:0;word-break:break-word}
  h3{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#6b7280;margin:14px 0 6px}
  .log div{display:flex;gap:8px;align-items:baseline;margin-bottom:5px}.dot{width:9px;height:9px;border-radius:50%;flex:none}
  .chip{display:inline-block;background:#eef0f3;border-radius:3px;padding:1px 6px;margin-right:4px;font-size:12px}
  .pre{white-space:pre-wrap;background:#f6f8fa;border-radius:4px;padding:8px;font-size:12px}a{color:#0a66d8;text-decoration:none}`;

const rows = (entries: [string, unknown][]) =>
  `<dl>${entries.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(String(v))}</dd>`).join('')}</dl>`;

function pagerdutyPanel(trigger: Record<string, unknown>, resolve: Record<string, unknown>): string {
  const p = trigger.payload as Record<string, unknown>;
  const links = (trigger.links as { href: string; text: string }[]) ?? [];
  const resolved = resolve.event_action === 'resolve' && resolve.dedup_key === trigger.dedup_key;
  return `<div class="panel"><div class="head" style="background:#06ac38">PagerDuty · Incident</div><div class="inner">
    <span class="badge" style="background:${resolved ? '#06ac38' : '#e74c3c'}">${resolved ? 'Resolved' : 'Triggered'}</span>
    <span class="badge" style="background:#e74c3c">${escapeHtml(String(p.severity))}</span>
    <h2>${escapeHtml(String(p.summary))}</h2>
    ${rows([
      ['Source', p.source],
      ['Component', p.component],
      ['Group', p.group],
      ['Class', p.class],
      ['Dedup key', trigger.dedup_key],
      ['Client', trigger.client],
    ])}
    <h3>Custom details</h3>${rows(Object.entries(p.custom_details as Record<string, unknown>))}
    <h3>Links</h3>${links.map((l) => `<a>${escapeHtml(l.text)}</a> <span style="color:#6b7280">${escapeHtml(l.href)}</span>`).join('<br>')}
    <h3>Timeline</h3><div class="log">
      <div><span class="dot" style="background:#e74c3c"></span><b>${clock(at(0))}</b> Triggered through the Events API by Warden</div>
      ${resolved ? `<div><span class="dot" style="background:#06ac38"></span><b>${clock(at(1))}</b> Resolved through the Events API (same dedup key)</div>` : ''}
    </div></div></div>`;
}

function opsgeniePanel(alert: Record<string, unknown>, close: { path: string; note: string }): string {
  const closed = close.path.startsWith(`/v2/alerts/${encodeURIComponent(String(alert.alias))}/close`);
  return `<div class="panel"><div class="head" style="background:#2684ff">Opsgenie · Alert</div><div class="inner">
    <span class="badge" style="background:#de350b">${escapeHtml(String(alert.priority))}</span>
    <span class="badge" style="background:${closed ? '#6b7280' : '#de350b'}">${closed ? 'Closed' : 'Open'}</span>
    <h2>${escapeHtml(String(alert.message))}</h2>
    ${rows([
      ['Alias', alert.alias],
      ['Source', alert.source],
      ['Entity', alert.entity],
    ])}
    <dl><dt>Tags</dt><dd>${(alert.tags as string[]).map((t) => `<span class="chip">${escapeHtml(t)}</span>`).join('')}</dd></dl>
    <h3>Description</h3><div class="pre">${escapeHtml(String(alert.description))}</div>
    <h3>Extra properties</h3>${rows(Object.entries(alert.details as Record<string, unknown>))}
    <h3>Activity</h3><div class="log">
      <div><span class="dot" style="background:#de350b"></span><b>${clock(at(0))}</b> Alert created by Warden through the API</div>
      ${closed ? `<div><span class="dot" style="background:#6b7280"></span><b>${clock(at(1))}</b> Closed by Warden: “${escapeHtml(close.note)}”</div>` : ''}
    </div></div></div>`;
}

async function pagers(page: Page): Promise<void> {
  const key = 'R0123456789abcdef0123456789abcde';
  const accepted = { status: 202, body: '{"status":"success","message":"Event processed"}' };
  const pd = await channelRequests(pagerdutyChannel, (o) => ({ routingKey: key, apiUrl: o }), EVENTS, accepted);
  const og = await channelRequests(
    opsgenieChannel,
    (o) => ({ apiKey: 'eb243592-faa2-4ba2-a551-1afdf565c889', apiUrl: o }),
    EVENTS,
    { status: 202, body: '{"result":"Request will be processed"}' },
  );
  const [trigger, resolve] = pd.map((r) => r.json as Record<string, unknown>);
  const [create, close] = og as [ReceivedRequest, ReceivedRequest];
  const alert = create.json as Record<string, unknown>;
  const closing = { path: close.path, note: (close.json as { note: string }).note };
  const body = `<div id="pagers">${pagerdutyPanel(trigger ?? {}, resolve ?? {})}${opsgeniePanel(alert, closing)}</div>`;
  await shoot(page, html(PAGER_CSS, body), '#pagers', 'notify-pagers.png', ['#06ac38', '#2684ff', '#e74c3c']);
}

/** The phones' and the pagers' pictures. */
export async function deviceScreenshots(page: Page): Promise<void> {
  await phones(page);
  await pagers(page);
}
