// The page editor's "Discord boards" section in real Chromium against a real Warden: a board added with a component
// picked, listed with its redacted webhook and its message's state; changed without retyping the webhook; deleted;
// warden.yaml's board read-only; no serious accessibility violation.
import { describe, expect, it } from 'vitest';
import { scaled } from '../time-scale.js';
import { editorDashboard, seriousViolations } from './dashboard-harness.js';

// Nothing listens there: the keeper's attempts fail, which the list then shows; no request leaves the machine.
const WEBHOOK = 'http://127.0.0.1:9/api/webhooks/123456789/games-token-abcdef';
const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, config: { graceSec: 600 } }
pages:
  - slug: main
    title: Acme status
    components:
      - { key: hub, name: Hub, monitor: lobby }
      - { key: forum, name: Forum }
    boards:
      - { key: announce, webhookUrl: "http://127.0.0.1:9/api/webhooks/42/announce-token-abcdef" }
`;

describe('the dashboard’s Discord boards', () => {
  const d = editorDashboard(YAML);

  const section = () => d.page.getByRole('region', { name: 'Discord boards' });
  const stored = async (key: string) => {
    const main = await d.warden.opened.store.pages.findBySlug('main');
    return d.warden.opened.store.boards.findByKey(main!.id, key);
  };

  it('adds a board from the page screen and lists it with its message state, warden.yaml’s read-only', {
    timeout: scaled(60_000),
  }, async () => {
    await d.page.goto(`${d.warden.url}/app/pages/main`);
    const announce = section().getByRole('listitem', { name: 'Board announce' });
    await announce.waitFor();
    expect(await announce.textContent()).toContain('warden.yaml');
    expect(await announce.textContent()).toContain('http://127.0.0.1:9/api/webhooks/42/…');
    expect(await announce.getByRole('button').count()).toBe(0);

    await section().getByRole('button', { name: 'Add a Discord board' }).click();
    const form = section().getByRole('form', { name: 'Add a Discord board' });
    await form.getByLabel('Key').fill('games');
    await form.getByLabel('Webhook URL').fill(WEBHOOK);
    await form.getByRole('combobox', { name: 'Components shown' }).click();
    await d.page.getByRole('option', { name: 'Hub' }).click();
    await d.page.keyboard.press('Escape');
    expect(await seriousViolations(d.page)).toEqual([]);
    await form.getByRole('button', { name: 'Add board' }).click();

    const games = section().getByRole('listitem', { name: 'Board games' });
    await games.waitFor();
    // The form closes once the page's boards are read again: on a loaded machine that took over 10 s.
    await form.waitFor({ state: 'detached', timeout: scaled(20_000) });
    const text = await games.textContent();
    // The token is never shown again; the state is in words.
    expect(text).toContain('http://127.0.0.1:9/api/webhooks/123456789/…');
    expect(text).not.toContain('games-token');
    expect(text).toContain('shows hub');
    expect(text).toMatch(/Posting|Retrying|Not posted|Stopped/);
    expect(await stored('games')).toMatchObject({ webhookUrl: WEBHOOK, enabled: true, managedBy: 'api' });
    expect(await seriousViolations(d.page)).toEqual([]);
  });

  it('changes a board without retyping its webhook, then deletes it', { timeout: scaled(30_000) }, async () => {
    await d.page.goto(`${d.warden.url}/app/pages/main`);
    const games = section().getByRole('listitem', { name: 'Board games' });
    await games.getByRole('button', { name: 'Edit board games' }).click();
    const dialog = d.page.getByRole('dialog', { name: 'Edit board games' });
    expect(await dialog.textContent()).toContain(
      'Currently http://127.0.0.1:9/api/webhooks/123456789/… (token hidden)',
    );
    await dialog.getByRole('switch', { name: /Enabled/ }).uncheck();
    expect(await seriousViolations(d.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save board' }).click();
    await dialog.waitFor({ state: 'detached' });
    await games.getByText('Disabled').waitFor();
    expect(await stored('games')).toMatchObject({ webhookUrl: WEBHOOK, enabled: false });

    await games.getByRole('button', { name: 'Delete board games' }).click();
    await d.page.getByRole('dialog').getByRole('button', { name: 'Delete board' }).click();
    await games.waitFor({ state: 'detached' });
    expect(await stored('games')).toBeUndefined();
    await section().getByRole('listitem', { name: 'Board announce' }).waitFor();
  });
});
