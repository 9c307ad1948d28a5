// The status page's "Get updates" block as markup: a Discord and a Slack channel beside email and webhook, each a
// labelled URL field with its hint, posting the right field to the page's subscribe path; and the answer pages.
import { describe, expect, it } from 'vitest';
import { operationalSnapshot } from '../../test/fakes/snapshots.js';
import type { Snapshot } from '../domain/snapshot.js';
import { renderHtmlPage } from './html-page.js';
import { renderSubscriptionNotice } from './html-subscribe.js';
import { translator } from './i18n/index.js';

const ACTION = '/s/main/subscribe';

function pageWith(subscribe: Snapshot['page']['subscribe'], language?: 'de'): string {
  const snapshot = operationalSnapshot();
  snapshot.page.subscribe = subscribe;
  return renderHtmlPage(snapshot, {
    jsonPath: '/s/main/status.json',
    markdownPath: '/s/main/status.md',
    refreshSeconds: 60,
    subscribePath: ACTION,
    ...(language ? { i18n: translator(language) } : {}),
  }).body;
}

/** The markup of the form holding the field of this name. */
function formOf(html: string, name: string): string {
  const field = html.indexOf(`name="${name}"`);
  expect(field).toBeGreaterThan(0);
  const start = html.lastIndexOf('<form', field);
  return html.slice(start, html.indexOf('</form>', field) + '</form>'.length);
}

const ALL = { email: true, webhook: true, discord: true, slack: true };

describe('the subscribe block', () => {
  it('offers a Discord and a Slack channel, each folded under its name, between email and the webhook', () => {
    const html = pageWith(ALL);
    const summaries = [...html.matchAll(/<summary>([^<]+)<\/summary>/g)].map((m) => m[1]);
    expect(summaries).toEqual(expect.arrayContaining(['Discord channel', 'Slack channel', 'Or get a webhook']));
    const order = ['name="email"', 'name="discord"', 'name="slack"', 'name="webhook"'].map((n) => html.indexOf(n));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('posts a Discord webhook URL to the subscribe path, labelled, with where to find it described', () => {
    const form = formOf(pageWith(ALL), 'discord');
    expect(form).toContain(`<form method="post" action="${ACTION}" data-subscribe="discord"`);
    expect(form).toContain('<label for="subscribe-discord">Discord webhook URL</label>');
    expect(form).toMatch(/<input id="subscribe-discord" name="discord" type="url"[^>]* required/);
    expect(form).toContain('aria-describedby="subscribe-discord-hint subscribe-discord-answer"');
    expect(form).toContain(
      '<p class="hint" id="subscribe-discord-hint">In Discord: Server Settings → Integrations → Webhooks → New Webhook, pick the channel, then Copy Webhook URL.',
    );
    // The answer's place beside the field, announced when the script fills it.
    expect(form).toContain(
      '<div class="answer" id="subscribe-discord-answer" data-testid="subscribe-discord-answer" aria-live="polite"></div>',
    );
    expect(form).toContain(
      'data-done="Subscribed: channel {channel} in server {guild}, through the webhook “{webhook}”."',
    );
    expect(form).toContain('data-open="Open the channel in Discord"');
    expect(form).toContain('<button class="button" type="submit">Subscribe the channel</button>');
  });

  it("posts a Slack incoming webhook, saying it waits for the page owner's approval", () => {
    const form = formOf(pageWith(ALL), 'slack');
    expect(form).toContain('data-subscribe="slack"');
    expect(form).toContain('<label for="subscribe-slack">Slack webhook URL</label>');
    expect(form).toContain('aria-describedby="subscribe-slack-hint subscribe-slack-answer"');
    expect(form).toContain('An incoming webhook of a Slack app');
    expect(form).toContain('Nothing is sent until the page’s owner approves it.');
    expect(form).toContain(
      'data-done="Waiting for the page owner’s approval: nothing is sent to the channel until then."',
    );
    expect(form).not.toContain('data-open');
  });

  it('offers only what the snapshot offers, and nothing on a page without subscriptions', () => {
    const emailOnly = pageWith({ email: true, webhook: false, discord: false, slack: false });
    expect(emailOnly).toContain('name="email"');
    expect(emailOnly).not.toContain('name="discord"');
    expect(emailOnly).not.toContain('name="slack"');
    // Without an SMTP server: the channels and the (folded) webhook, no email field.
    const noEmail = pageWith({ email: false, webhook: true, discord: true, slack: true });
    expect(noEmail).not.toContain('name="email"');
    expect(noEmail).toContain('name="discord"');
    expect(noEmail).toContain('<summary>Or get a webhook</summary>');
    // A webhook alone is shown unfolded, as before.
    expect(pageWith({ email: false, webhook: true, discord: false, slack: false })).not.toContain('<details><summary>');
    expect(pageWith(undefined)).not.toContain('id="subscribe"');
  });

  it("speaks the page's language, the answer's words included", () => {
    const html = pageWith(ALL, 'de');
    expect(html).toContain('<summary>Discord-Kanal</summary>');
    expect(html).toContain('Servereinstellungen → Integrationen → Webhooks');
    expect(formOf(html, 'slack')).toContain('data-failed="Abonnieren fehlgeschlagen"');
    expect(formOf(html, 'discord')).toContain('data-done="Abonniert: Kanal {channel} auf Server {guild}');
  });
});

describe('the answer page of a subscribed channel', () => {
  it('links the Discord channel after its lines', () => {
    const { body } = renderSubscriptionNotice({
      heading: 'Discord channel subscribed',
      lines: ['Subscribed: channel 2 in server 1, through the webhook “Warden”.'],
      page: { title: 'Acme', url: '/s/main' },
      link: { label: 'Open the channel in Discord', url: 'https://discord.com/channels/1/2' },
    });
    expect(body).toContain('<h1>Discord channel subscribed</h1>');
    expect(body).toContain(
      '<p>Subscribed: channel 2 in server 1, through the webhook “Warden”.</p><p><a href="https://discord.com/channels/1/2">Open the channel in Discord</a></p>',
    );
  });
});
