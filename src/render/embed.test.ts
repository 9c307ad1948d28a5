// The embed widget as markup: self-contained, its policy allows only its own style and script, state, players, link, themes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hostileSnapshot, operationalSnapshot, partialOutageSnapshot, SNAPSHOT_FIXTURES, snapshotOf } from '../../test/fakes/snapshots.js';
import { EMBED_CONTENT_SECURITY_POLICY, EMBED_DOCUMENT_POLICY, embedOptions, renderEmbed } from './embed.js';

const OPTIONS = { livePath: '/s/blockhaven/live', jsonPath: '/s/blockhaven/status.json' };

describe('renderEmbed', () => {
  it('shows the state, the name, the overall label, players online and a link opening the page in a new tab', () => {
    const { contentType, body } = renderEmbed(partialOutageSnapshot(), OPTIONS);
    expect(contentType).toBe('text/html; charset=utf-8');
    expect(body).toContain('<div class="widget t-degraded" data-testid="embed" data-state="degraded">');
    expect(body).toContain('data-testid="embed-link" aria-label="Blockhaven Network: full status (opens in a new tab)">Blockhaven Network<span');
    expect(body).toContain('aria-live="polite">Partial outage: 1 of 6 components down</span>');
    expect(body).toContain('<p class="players" data-testid="embed-players"><b class="count">63 / 600</b> <span>online</span></p>');
    expect(body).toMatch(/<a class="open" href="https:\/\/status\.blockhaven\.example\/" target="_blank" rel="noopener"/);
    expect(body).toContain(' data-live="/s/blockhaven/live" data-json="/s/blockhaven/status.json"');
  });

  it('hides the players part when the page reports none', () => {
    const { body } = renderEmbed(snapshotOf([], {}), OPTIONS);
    expect(body).toContain('data-testid="embed-players" hidden><b class="count"></b> <span>online</span></p>');
  });

  it('loads nothing from anywhere: inline style and script, allowed by their hashes', () => {
    const { body } = renderEmbed(operationalSnapshot(), OPTIONS);
    expect(body).not.toMatch(/<(script|img|link|iframe)[^>]+(src|href)=/);
    expect(body).not.toMatch(/url\(/);
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const style = /<style>([\s\S]*?)<\/style>/.exec(body)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(body)![1]!;
    expect(EMBED_DOCUMENT_POLICY).toContain(`style-src ${hash(style)}`);
    expect(EMBED_DOCUMENT_POLICY).toContain(`script-src ${hash(script)}`);
    expect(EMBED_DOCUMENT_POLICY).toContain("connect-src 'self'");
    // frame-ancestors is ignored (and warned about) in a <meta>: it is sent as a header only.
    expect(body).not.toContain('frame-ancestors');
    expect(EMBED_CONTENT_SECURITY_POLICY.endsWith('; frame-ancestors *')).toBe(true);
  });

  it('follows the reader’s colour scheme unless a theme is asked for', () => {
    expect(renderEmbed(operationalSnapshot(), OPTIONS).body).toContain('<html lang="en" data-theme="auto"');
    expect(renderEmbed(operationalSnapshot(), { ...OPTIONS, theme: 'dark' }).body).toContain('data-theme="dark"');
    expect(embedOptions(new URLSearchParams('theme=light'))).toEqual({ theme: 'light' });
    expect(embedOptions(new URLSearchParams('theme=%22%3E'))).toEqual({});
    expect(embedOptions(new URLSearchParams('players&x=1'))).toEqual({});
  });

  it('escapes hostile text', () => {
    const { body } = renderEmbed(hostileSnapshot(), OPTIONS);
    expect(body).not.toContain('<img src=x');
    expect(body).toContain('Bob&#39;s &quot;Best&quot; &lt;Server&gt; &amp; Co');
    expect(body.match(/<script>/g)).toHaveLength(1);
  });

  it('gives the same bytes for the same snapshot', () => {
    for (const make of Object.values(SNAPSHOT_FIXTURES)) expect(renderEmbed(make(), OPTIONS).body).toBe(renderEmbed(make(), OPTIONS).body);
  });
});
