// The component form's "Join button" in real Chromium against a real Warden: a custom address the public snapshot
// then shows as a copy button, a link of another scheme refused under its field, and "Hidden" chosen on a change.
import { describe, expect, it } from 'vitest';
import { editorDashboard } from './dashboard-harness.js';

const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, config: { graceSec: 600 } }
`;

interface PublicComponent {
  name: string;
  join: { kind: string; label: string; address?: string; url?: string } | null;
}

describe('the component form’s join button', () => {
  const d = editorDashboard(YAML);

  const publicComponents = async (): Promise<PublicComponent[]> =>
    ((await (await fetch(`${d.warden.url}/api/v1/status/main`)).json()) as { components: PublicComponent[] })
      .components;

  it('adds a component with its own address to copy, refusing a javascript: link', async () => {
    await d.page.goto(`${d.warden.url}/app/pages`);
    await d.page.getByRole('button', { name: 'New page' }).first().click();
    const dialog = d.page.getByRole('dialog', { name: 'New page' });
    await dialog.getByLabel('Title').fill('Games');
    await dialog.getByLabel('Slug').fill('main');
    await dialog.getByRole('button', { name: 'Create page' }).click();
    await d.page.waitForURL(/\/app\/pages\/main$/);
    const form = d.page.getByRole('form', { name: 'Add a component' });
    await form.getByLabel('Name').fill('Survival');
    await form.getByLabel('Join button').click();
    await d.page.getByRole('option', { name: 'Custom address or link' }).click();
    await form.getByRole('textbox', { name: 'Join link' }).fill('javascript:alert(1)');
    await form.getByRole('button', { name: 'Add component' }).click();
    await form.getByText('expected a steam:// or https:// URL').waitFor();

    await form.getByRole('textbox', { name: 'Join link' }).fill('');
    await form.getByRole('textbox', { name: 'Address to copy' }).fill('play.example.com:25570');
    await form.getByRole('button', { name: 'Add component' }).click();
    await expect
      .poll(async () => (await publicComponents()).find((c) => c.name === 'Survival')?.join)
      .toEqual({ kind: 'copy', label: 'play.example.com:25570', address: 'play.example.com:25570' });
  });

  it('hides it on a change, the form showing the custom address it had', async () => {
    await d.page.getByRole('button', { name: 'Edit Survival' }).click();
    const form = d.page.getByRole('form', { name: 'Change Survival' });
    expect(await form.getByRole('textbox', { name: 'Address to copy' }).inputValue()).toBe('play.example.com:25570');
    await form.getByLabel('Join button').click();
    await d.page.getByRole('option', { name: 'Hidden' }).click();
    await form.getByRole('button', { name: 'Save component' }).click();
    await expect.poll(async () => (await publicComponents()).find((c) => c.name === 'Survival')?.join).toBeNull();
  });
});
