// `warden import uptime-kuma` as an operator runs it: the built CLI reads a Kuma database and writes a warden.yaml.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { runCli } from '../cli-process.js';
import { buildKumaFixture, operatorEnv } from '../fixtures/uptime-kuma/kuma-fixture.js';

const fixture = buildKumaFixture('2.x');
const work = mkdtempSync(join(tmpdir(), 'warden-kuma-cli-'));
afterAll(() => {
  fixture.cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe('warden import uptime-kuma', () => {
  it('writes a warden.yaml that config apply takes, and lists what it left out on standard error', async () => {
    const output = join(work, 'warden.yaml');
    const { code, stderr } = await runCli(['import', 'uptime-kuma', fixture.file, '-o', output, '--org', 'acme']);
    expect(code, stderr).toBe(0);
    const text = readFileSync(output, 'utf8');
    expect(text).toContain(`# Imported from ${fixture.file}`);
    const config = parseConfigText(text, output, operatorEnv(text));
    expect(config.organization.key).toBe('acme');
    expect(config.monitors.map((m) => [m.key, m.type])).toContainEqual(['lobby', 'minecraft-java']);
    expect(config.pages.map((p) => p.slug)).toEqual(['status', 'internal']);
    expect(stderr).toContain('monitor "Browser check" (id 17): Warden has no browser-rendering monitor');
    expect(stderr).toMatch(
      new RegExp(`${output}: ${config.monitors.length} monitors, 2 pages; 7 skipped, \\d+ approximated`),
    );
  });
});
