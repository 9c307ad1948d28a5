import { describe, expect, it } from 'vitest';
import { channelDefinition } from '../channels/registry.js';
import { TEMPLATE_FIELDS } from './fields.js';
import { sampleEvents } from './samples.js';
import { checkTemplate, renderMessage, TEMPLATE_OUTPUT, TemplateError } from './template.js';

const [down, recovered] = sampleEvents();
const event = (kind: string) => {
  const found = sampleEvents().find((sample) => sample.kind === kind);
  if (!found) throw new Error(kind);
  return found;
};

function refusal(source: string): TemplateError {
  try {
    checkTemplate(source);
  } catch (error) {
    if (error instanceof TemplateError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('message templates', () => {
  it('render the documented fields of an event', () => {
    const message = renderMessage(
      {
        title: '[{{organization.name}}] {{kindLabel}}: {{monitor.name}}',
        body: '{{#monitor}}{{name}} ({{key}}, {{type}}) is {{state}}, was {{previousState}}{{/monitor}}\n{{reason}}\n{{links.page}} {{time.iso}} {{time.human}}',
      },
      down!,
    );
    expect(message.title).toBe('[Acme] Monitor down: Lobby');
    expect(message.body).toBe(
      'Lobby (lobby, minecraft) is down, was up\nconnect ECONNREFUSED 203.0.113.7:25565\nhttps://status.example.com/s/status 2025-03-01T14:05:00.000Z 2025-03-01 14:05 UTC',
    );
    expect(renderMessage({ body: 'after {{duration}} ({{durationSeconds}} s), {{players}}' }, recovered!).body).toBe(
      'after 4 min 12 s (252 s), 12 / 64 online',
    );
    expect(
      renderMessage({ body: '{{#incident}}{{title}}: {{status}}, {{impact}}{{/incident}}' }, event('incident.updated'))
        .body,
    ).toBe('Login fails for some players: identified, major');
    expect(renderMessage({ body: '{{certificate.host}} {{certificate.daysLeft}}' }, event('tls.expiring')).body).toBe(
      'shop.example.com 9',
    );
    expect(renderMessage({ body: '{{links.dashboard}} {{links.monitor}}' }, down!).body).toBe(
      'https://status.example.com/app https://status.example.com/app/monitors/mon_sample',
    );
    expect(renderMessage({ body: '{{#pages}}{{title}} <{{url}}>{{/pages}}' }, down!).body).toBe(
      'Acme status <https://status.example.com/s/status>',
    );
  });

  it('skips a section the event lacks and every documented field is accepted', () => {
    expect(
      renderMessage({ body: 'x{{#incident}}{{title}}{{/incident}}y{{^monitor}}none{{/monitor}}' }, down!).body,
    ).toBe('xy');
    for (const field of TEMPLATE_FIELDS) checkTemplate(`{{${field.name.replace(/^pages\./, 'page.')}}}`);
  });

  it('does not escape HTML: each channel escapes the text for its own format', () => {
    const tricky = { ...down!, monitor: { ...down!.monitor!, name: '<b>"Lobby" & co</b>' } };
    expect(renderMessage({ title: '{{monitor.name}}', body: '{{{monitor.name}}}' }, tricky)).toEqual({
      title: '<b>"Lobby" & co</b>',
      body: '<b>"Lobby" & co</b>',
    });
  });

  it('caps the output: the title on one line, both to their limits', () => {
    const message = renderMessage({ title: `a\n${'x'.repeat(400)}`, body: '{{reason}}'.repeat(400) }, down!);
    expect(message.title).toHaveLength(TEMPLATE_OUTPUT.title);
    expect(message.title?.startsWith('a x')).toBe(true);
    expect(Array.from(message.body ?? '')).toHaveLength(TEMPLATE_OUTPUT.body);
    expect(message.body?.endsWith('…')).toBe(true);
  });

  it('refuses unknown fields, partials, delimiters and broken tags, naming the line', () => {
    expect(refusal('ok\n{{monitr.name}}').message).toBe(
      'line 2: unknown field "monitr.name" (docs/notifications.md lists the fields)',
    );
    expect(refusal('a\nb\n{{> header}}').message).toMatch(/^line 3: partials/);
    expect(refusal('{{=<% %>=}}').message).toMatch(/^line 1: changing the delimiters/);
    expect(refusal('one\ntwo {{#monitor}}\n{{name}}').message).toMatch(/^line 2: Unclosed section "monitor"/);
    expect(refusal('x\n{{title').line).toBe(2);
    expect(refusal('{{constructor}}').message).toMatch(/unknown field "constructor"/);
    expect(refusal('{{#title}}{{length}}{{/title}}').message).toMatch(/unknown field "length"/);
    expect(refusal('{{#pages}}{{#pages}}{{title}}{{/pages}}{{/pages}}').message).toMatch(/inside another/);
  });

  it('is part of every channel type’s config, checked with the type’s own fields', () => {
    const discord = channelDefinition('discord').config;
    const url = 'https://discord.com/api/webhooks/1/abc';
    expect(discord.safeParse({ url, template: { title: '{{title}}' } }).success).toBe(true);
    const bad = discord.safeParse({ url, template: { body: 'x\n{{nope}}' } });
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['template', 'body'],
      message: expect.stringMatching(/line 2/),
    });
    expect(discord.safeParse({ url, extra: 1 }).success).toBe(false);
    const email = channelDefinition('email').config;
    const password = { host: 'smtp.example.com', from: 'a@example.com', to: 'b@example.com', password: 'p' };
    expect(email.safeParse({ ...password, template: { title: '{{title}}' } }).success).toBe(false);
  });
});
