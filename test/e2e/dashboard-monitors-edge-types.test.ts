// The dashboard's monitor screens in real Chromium against a real Warden and the fake servers of test/fakes: one monitor
// of every type that runs on the edge created through the generated form (and tested from it), the detail screen
// (chart, recent checks, check now, state history, pause and resume, delete), editing with a secret kept, warden.yaml's
// monitors read-only, and no serious accessibility violation.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../time-scale.js';
import { seriousViolations } from './dashboard-harness.js';
import { field, monitorScreens } from './dashboard-monitors-harness.js';
import { type EdgeTypeFakes, RCON_PASSWORD, startEdgeTypeFakes } from './edge-type-fakes.js';

describe('the dashboard’s monitor screens', () => {
  let fakes: EdgeTypeFakes;
  beforeAll(async () => {
    fakes = await startEdgeTypeFakes();
  }, scaled(30_000));
  afterAll(async () => {
    await fakes?.close();
  });
  const d = monitorScreens();

  /** Fills the new-monitor form for a type (interval 10 s, the shortest) and leaves it unsent. */
  async function fillForm(page: Page, type: string, name: string): Promise<void> {
    await field(page, 'Type').selectOption(type);
    await field(page, 'Name').fill(name);
    for (const [label, value] of Object.entries(fakes.inputs[type] ?? {})) await field(page, label).fill(value);
    await field(page, 'Interval (s)').fill('10');
  }

  it('creates one monitor of every edge type through the form generated from the type schemas, testing checks first', {
    timeout: scaled(180_000),
  }, async () => {
    const answer = await fetch(`${d.warden.url}/api/v1/monitor-types`, {
      headers: { authorization: `Bearer ${d.warden.readKey}` },
    });
    const { types } = (await answer.json()) as { types: { id: string; runsOn: string[] }[] };
    const edge = types.filter((t) => t.runsOn.includes('edge')).map((t) => t.id);
    // A type added without a fake here fails this test rather than going untested.
    expect(edge.filter((t) => !(t in fakes.inputs))).toEqual([]);
    const { context, page } = await d.open('/monitors/new');
    try {
      await page.getByRole('heading', { name: 'New monitor' }).waitFor();

      // The API's field path (body.config.port) puts its error under the Port field.
      await fillForm(page, 'tcp', 'Game port');
      await field(page, 'Port').fill('70000');
      await page.getByRole('button', { name: 'Test this check' }).click();
      await expect.poll(() => field(page, 'Port').getAttribute('aria-invalid')).toBe('true');
      // Announced with the field: its error is part of its description.
      const described = (await field(page, 'Port').getAttribute('aria-describedby')) ?? '';
      expect(
        await page
          .locator(
            described
              .split(' ')
              .map((id) => `[id="${id}"]`)
              .join(', '),
          )
          .allTextContents(),
      ).toContain('expected an integer from 1 to 65535');
      // The form, generated fields and an inline error included, passes axe.
      expect(await seriousViolations(page)).toEqual([]);
      await field(page, 'Port').fill(fakes.inputs.tcp!.Port!);
      await page.getByRole('button', { name: 'Test this check' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Passed in \d+ ms/ })
        .waitFor();

      const create = async (name: string) => {
        await page.getByRole('button', { name: 'Create monitor' }).click();
        await page.waitForURL(/\/app\/monitors\/mon_[0-9a-z]+$/);
        await page.getByRole('heading', { name }).waitFor();
      };
      await create('Game port');
      for (const type of edge.filter((t) => t !== 'tcp')) {
        // Back to the form inside the app (its history), not a reload: the dashboard's bundle is parsed once.
        await page.goBack();
        await page.getByRole('heading', { name: 'New monitor' }).waitFor();
        await fillForm(page, type, `E2E ${type}`);
        if (type === 'minecraft-java') {
          await page.getByRole('button', { name: 'Test this check' }).click();
          await page
            .getByRole('status')
            .filter({ hasText: /^Passed in \d+ ms.*12\/100 players/ })
            .waitFor();
        }
        if (type === 'tls') {
          // The pasted PEM (the CA field) is what makes the private chain trusted.
          await page.getByRole('button', { name: 'Test this check' }).click();
          await page
            .getByRole('status')
            .filter({ hasText: /^Passed in \d+ ms/ })
            .waitFor();
        }
        await create(`E2E ${type}`);
      }

      // The list renders the rows in view (a window virtualizer): a page tall enough holds every one of them.
      await page.setViewportSize({ width: 1280, height: 4000 });
      await page.goto(`${d.warden.url}/app/monitors`);
      const table = page.getByRole('table', { name: 'Monitors' });
      await expect.poll(() => table.getByRole('row').count()).toBe(edge.length + 2);
      for (const type of edge.filter((t) => t !== 'tcp'))
        expect(await table.getByRole('row', { name: new RegExp(`E2E ${type}\\b`) }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('shows a monitor: chart and players, recent checks, check now, state history through pause and resume, then deletes it', {
    timeout: scaled(30_000),
  }, async () => {
    const monitor = (await d.warden.opened.store.monitors.list(d.warden.organizationId)).find(
      (m) => m.type === 'minecraft-java',
    )!;
    const { context, page } = await d.open(`/monitors/${monitor.id}`);
    try {
      await page.getByRole('heading', { name: 'E2E minecraft-java' }).waitFor();
      await page.getByRole('button', { name: 'Check now' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /Check now: Passed in \d+ ms/ })
        .waitFor();
      const checks = page.getByRole('table', { name: /Recent checks/ });
      await expect.poll(async () => (await checks.textContent()) ?? '').toContain('12/100 players');
      await page.getByRole('figure', { name: 'Response time over the last 24 hours' }).locator('canvas').waitFor();
      await page.getByRole('figure', { name: 'Players over the last 24 hours' }).waitFor();
      await page.getByText('7 d', { exact: true }).click();
      await page.getByRole('figure', { name: 'Response time over the last 7 days' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      const states = page.getByRole('table', { name: /State changes/ });
      await expect.poll(async () => (await states.textContent()) ?? '').toMatch(/Unknown\s*→?\s*to\s*Up|Unknown.*Up/);
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByRole('button', { name: 'Resume' }).waitFor();
      await expect
        .poll(async () => (await states.getByRole('row').nth(1).textContent()) ?? '')
        .toMatch(/Up.*Paused.*paused/);
      expect(await page.getByRole('button', { name: 'Check now' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByRole('button', { name: 'Pause' }).waitFor();
      await expect
        .poll(async () => (await states.getByRole('row').nth(1).textContent()) ?? '')
        .toMatch(/Paused.*Up.*resumed/);

      await page.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete E2E minecraft-java?' });
      await dialog.getByRole('button', { name: 'Delete monitor' }).click();
      await page.waitForURL(/\/app\/monitors$/);
      // Every type's monitor is listed now: a page tall enough shows all the rows the list renders in view.
      await page.setViewportSize({ width: 1280, height: 4000 });
      await page
        .getByRole('table', { name: 'Monitors' })
        .getByRole('row', { name: /E2E tcp|Game port/ })
        .first()
        .waitFor();
      expect(await page.getByRole('row', { name: /E2E minecraft-java/ }).count()).toBe(0);
      expect(await d.warden.opened.store.monitors.findById(monitor.id)).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('edits a monitor keeping its secret as [redacted], and shows warden.yaml’s monitors read-only with their key', {
    timeout: scaled(30_000),
  }, async () => {
    const rcon = (await d.warden.opened.store.monitors.list(d.warden.organizationId)).find((m) => m.type === 'rcon')!;
    const { context, page } = await d.open(`/monitors/${rcon.id}/edit`);
    try {
      await page.getByRole('heading', { name: 'Edit E2E rcon' }).waitFor();
      expect(await field(page, 'Password').inputValue()).toBe('[redacted]');
      expect(await page.getByText('Leave as [redacted] to keep the current one.').isVisible()).toBe(true);
      await field(page, 'Name').fill('Source RCON');
      const tags = page.getByRole('combobox', { name: 'Tags' });
      await tags.fill('games');
      await tags.press('Enter');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { name: 'Source RCON' }).waitFor();
      expect(await page.getByText('games', { exact: true }).isVisible()).toBe(true);
      const stored = await d.warden.opened.store.monitors.findById(rcon.id);
      expect(stored).toMatchObject({
        name: 'Source RCON',
        tags: ['games'],
        config: expect.objectContaining({ password: RCON_PASSWORD }),
      });

      const managed = d.warden.monitors.backups!;
      await page.goto(`${d.warden.url}/app/monitors/${managed.id}`);
      await page.getByRole('heading', { name: 'Nightly backups' }).waitFor();
      expect(await page.getByLabel('Managed by warden.yaml: change it in the file').isVisible()).toBe(true);
      expect(await page.getByText(/warden\.yaml manages this monitor \(key backups\)/).isVisible()).toBe(true);
      for (const name of ['Edit', 'Delete', 'Pause', 'New push token'])
        expect(await page.getByRole('button', { name }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
