// `warden config apply` prints the push URL of each heartbeat monitor that got its token now, once: the token is
// stored hashed, so this is the only time anyone sees it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '../../domain/tokens.js';
import { withServices } from '../session.js';
import { configCommand } from './config.js';

const FIXED = `wdp_${'f'.repeat(32)}`;
const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: backup, name: Nightly backup, type: heartbeat, config: { graceSec: 90000 } }
  - { key: cron, name: Cron, type: heartbeat, pushToken: "${FIXED}" }
  - { key: lobby, name: Lobby, type: tcp, config: { host: mc.example.com, port: 25565 } }
`;

const saved = { ...process.env };
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'warden-config-apply-'));
  Object.assign(process.env, {
    LOG_LEVEL: 'silent',
    DATABASE_URL: '',
    DATABASE_SCHEMA: '',
    WARDEN_DATA_DIR: dir,
    WARDEN_BASE_URL: 'https://status.example.com',
  });
  writeFileSync(join(dir, 'warden.yaml'), YAML);
});
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `warden config apply FILE` in-process; returns what it wrote to standard output and standard error. */
async function apply(file = 'warden.yaml'): Promise<{ stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const capture = (stream: 'stdout' | 'stderr') =>
    vi.spyOn(process[stream], 'write').mockImplementation((chunk) => {
      out[stream] += String(chunk);
      return true;
    });
  const stdout = capture('stdout');
  const stderr = capture('stderr');
  try {
    await configCommand().parseAsync(['node', 'config', 'apply', join(dir, file)]);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  return out;
}

describe('warden config apply', () => {
  it("prints each new heartbeat monitor's push URL with its token on standard output, once", async () => {
    const first = await apply();
    const lines = first.stdout.trim().split('\n');
    // Only the token Warden made: the one the file fixes is the operator's already.
    expect(lines).toEqual([expect.stringMatching(/^backup https:\/\/status\.example\.com\/api\/push\/wdp_[\w-]+$/)]);
    expect(first.stderr).toContain('new heartbeat push URLs (shown this once');
    const token = lines[0]?.split('/').pop() as string;
    const found = await withServices((ctx) => ctx.store.monitors.findByPushTokenHash(hashSecret(token)));
    expect(found?.key).toBe('backup');

    const again = await apply();
    expect(again.stdout).toBe('');
    expect(again.stderr).not.toContain('push URLs');
  });

  it('names the address the server recorded when WARDEN_BASE_URL is unset, and says when the host is a guess', async () => {
    delete process.env.WARDEN_BASE_URL;
    process.env.PORT = '18500';
    const withMonitor = (key: string) => {
      writeFileSync(join(dir, `${key}.yaml`), `${YAML}  - { key: ${key}, name: ${key}, type: heartbeat }\n`);
      return apply(`${key}.yaml`);
    };
    // No server ever ran on this database: PORT, said to be a guess.
    const guessed = await withMonitor('guessed');
    expect(guessed.stdout).toMatch(/^guessed http:\/\/localhost:18500\/api\/push\/wdp_[\w-]+\n$/);
    expect(guessed.stderr).toContain(
      'no server has recorded its address on this database and WARDEN_BASE_URL is not set: http://localhost:18500 in these links is a guess',
    );
    // A server on this database recorded where it listens (src/main.ts at start): that address, whatever PORT says.
    await withServices((ctx) => ctx.store.serverSecrets.put('server-address', 'http://10.0.0.5:18400', Date.now()));
    const recorded = await withMonitor('recorded');
    expect(recorded.stdout).toMatch(/^recorded http:\/\/10\.0\.0\.5:18400\/api\/push\/wdp_[\w-]+\n$/);
    expect(recorded.stderr).not.toContain('guess');
  });
});
