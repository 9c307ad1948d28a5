// The rcon probe against a fake RCON server in the manner of SRCDS and Minecraft, well and badly behaved, mostly through runProbe.
import { describe, expect, it } from 'vitest';
import { activeResources, leakedResources } from '../../test/fakes/handles.js';
import { abortedAfter, checkAgainst, closedTcpPort, probeDirectly } from '../../test/fakes/probe-runs.js';
import { type RconFakeOptions, startRconServer } from '../../test/fakes/rcon-server.js';
import { ANY_TARGET } from '../net/target-guard.js';
import { RCON_LIMITS, rcon, rconConfig } from './rcon.js';
import { runProbe } from './run.js';

const PASSWORD = 'hunter2-Secret!';
const TIMEOUT_MS = 800;

/** Runs the probe through runProbe against a fake, proving nothing stayed open and the password never shows. */
async function check(options: Partial<RconFakeOptions>, extra: Record<string, unknown> = {}, timeoutMs = TIMEOUT_MS) {
  const fake = await startRconServer({ password: PASSWORD, ...options });
  return checkAgainst(
    fake,
    rcon,
    { host: '127.0.0.1', port: fake.port, password: PASSWORD, ...extra },
    timeoutMs,
    PASSWORD,
  );
}

describe('rcon probe', () => {
  it('authenticates, runs `status` and reports the first line of its output', async () => {
    const { result, fake } = await check({});
    expect(result).toMatchObject({
      ok: true,
      message: 'hostname: Warden Test Server',
      data: { output: expect.stringContaining('players : 12 humans, 2 bots') },
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(fake.received.map((packet) => packet.type)).toEqual([3, 2, 0]);
    expect(fake.received[1]!.body).toBe('status');
    // The empty RESPONSE_VALUE marker follows the command, with the next id.
    expect(fake.received[2]).toEqual({ id: fake.received[1]!.id + 1, type: 0, body: '' });
  });

  it('reports a wrong password plainly, without the password', async () => {
    const fake = await startRconServer({ password: 'the-real-one' });
    try {
      const result = await runProbe(
        rcon,
        { host: '127.0.0.1', port: fake.port, password: PASSWORD },
        { timeoutMs: TIMEOUT_MS, guard: ANY_TARGET },
      );
      expect(result).toEqual({ ok: false, error: 'authentication failed (wrong RCON password?)' });
    } finally {
      await fake.close();
    }
  });

  it('joins output spread over several packets, in order', async () => {
    const long = Array.from({ length: 400 }, (_, line) => `line ${line} ${'.'.repeat(40)}`).join('\n');
    const { result } = await check(
      { commands: { cvarlist: long }, maxBodyBytes: 4096 },
      { command: 'cvarlist', expect: 'line 399' },
      1500,
    );
    expect(result).toMatchObject({ ok: true, message: 'line 0 ........................................' });
    expect(long.length).toBeGreaterThan(4096 * 4);
    const output = String(result.data?.output);
    expect(output.length).toBe(RCON_LIMITS.outputChars);
    expect(output.endsWith('…')).toBe(true);
  });

  it('ends at the marker on Minecraft, which answers it "Unknown request"', async () => {
    const { result, elapsedMs } = await check(
      { flavour: 'minecraft', commands: { list: 'There are 3 of a max of 20 players online: a, b, c' } },
      { command: 'list' },
    );
    expect(result).toMatchObject({ ok: true, message: 'There are 3 of a max of 20 players online: a, b, c' });
    expect(result.data?.output).not.toContain('Unknown request');
    expect(elapsedMs).toBeLessThan(RCON_LIMITS.quietMs);
  });

  it('finishes after a quiet period on servers that never echo the marker', async () => {
    const { result, elapsedMs } = await check({ flavour: 'no-echo' });
    expect(result).toMatchObject({ ok: true, message: 'hostname: Warden Test Server' });
    expect(elapsedMs).toBeGreaterThanOrEqual(RCON_LIMITS.quietMs - 20);
  });

  it('reports an empty output', async () => {
    const { result } = await check({ commands: { say: '' } }, { command: 'say' });
    expect(result).toMatchObject({ ok: true, message: 'command ran (no output)', data: { output: '' } });
  });

  describe('expect', () => {
    it('passes when the output contains the text', async () => {
      expect((await check({}, { expect: 'de_dust2' })).result.ok).toBe(true);
    });

    it('fails with the output attached when the text is missing', async () => {
      const { result } = await check({}, { expect: 'de_inferno' });
      expect(result).toMatchObject({
        ok: false,
        error: 'output does not contain "de_inferno"',
        data: { output: expect.stringContaining('de_dust2') },
      });
    });

    it('matches a /regular expression/ with flags', async () => {
      expect((await check({}, { expect: '/PLAYERS\\s*:\\s*\\d+ humans/i' })).result.ok).toBe(true);
      const { result } = await check({}, { expect: '/players : 0 humans/' });
      expect(result).toMatchObject({ ok: false, error: 'output does not match /players : 0 humans/' });
    });

    it('refuses an invalid regular expression as a config error, never a throw', async () => {
      const result = await runProbe(
        rcon,
        { host: '127.0.0.1', port: 1, password: PASSWORD, expect: '/([a-z/' },
        { timeoutMs: TIMEOUT_MS, guard: ANY_TARGET },
      );
      expect(result).toEqual({ ok: false, error: 'invalid config: expected a valid /regular expression/flags' });
      expect(rconConfig.safeParse({ host: 'h', password: 'p', expect: '/a/g' }).success).toBe(false);
    });

    it('reports an invalid regular expression as an error result when called directly', async () => {
      const config = { host: '127.0.0.1', port: 1, password: PASSWORD, command: 'status', expect: '/(unclosed/' };
      const result = await rcon.probe!(config, {
        signal: new AbortController().signal,
        timeoutMs: TIMEOUT_MS,
        guard: ANY_TARGET,
      });
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^invalid expect pattern: /) });
    });

    it('stops a catastrophic regular expression instead of stalling', async () => {
      const { result, elapsedMs } = await check(
        { commands: { status: `${'a'.repeat(40)}!` } },
        { expect: '/^(a+)+$/' },
        1500,
      );
      expect(result).toMatchObject({ ok: false, error: 'the expect pattern took too long to run on the output' });
      expect(elapsedMs).toBeLessThan(1000);
    });
  });

  it('never shows the password, even when the output prints it', async () => {
    const { result } = await check(
      { commands: { rcon_password: `"rcon_password" = "${PASSWORD}"` } },
      { command: 'rcon_password' },
    );
    expect(result).toMatchObject({ ok: true, message: '"rcon_password" = "***"' });
  });

  it('reports a closed port as refused', async () => {
    const port = await closedTcpPort();
    const before = activeResources();
    const result = await runProbe(
      rcon,
      { host: '127.0.0.1', port, password: PASSWORD },
      { timeoutMs: TIMEOUT_MS, guard: ANY_TARGET },
    );
    expect(result).toEqual({ ok: false, error: 'connection refused' });
    expect(await leakedResources(before)).toEqual({});
  });

  it('times out on a server that never answers', async () => {
    const { result, elapsedMs } = await check({ mode: 'silent' }, {}, 400);
    expect(result).toEqual({ ok: false, error: 'timed out after 0.4 s' });
    expect(elapsedMs).toBeGreaterThanOrEqual(380);
    expect(elapsedMs).toBeLessThan(800);
  });

  it('cuts a server trickling bytes off at the timeout', async () => {
    const { result, elapsedMs } = await check({ mode: 'trickle' }, {}, 300);
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s' });
    expect(elapsedMs).toBeLessThan(700);
  });

  it('refuses a huge size field without waiting for the bytes', async () => {
    const { result, elapsedMs } = await check({ mode: 'huge-size' });
    expect(result).toEqual({
      ok: false,
      error: `unexpected response: packet size 2147483647 exceeds the limit of ${64 * 1024} bytes`,
    });
    expect(elapsedMs).toBeLessThan(TIMEOUT_MS);
  });

  it('cuts endless output off at 1 MiB', async () => {
    const { result } = await check({ mode: 'endless' }, {}, 1500);
    expect(result).toEqual({ ok: false, error: 'unexpected response: more than 1 MiB of output' });
  });

  it('reports text that is not RCON as an unexpected response', async () => {
    const { result } = await check({ mode: 'garbage' });
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^unexpected response: packet size \d+ exceeds the limit/),
    });
  });

  it('reports a server closing the connection during authentication', async () => {
    const { result } = await check({ mode: 'close-on-auth' });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^connection (closed|reset) by the server/);
  });

  it('reports a server closing the connection before answering the command', async () => {
    const { result } = await check({ mode: 'close-on-command' });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(
      /^connection (closed by the server before the command was answered|reset by the server)$/,
    );
  });

  it('closes its socket and returns as soon as its signal aborts', async () => {
    const fake = await startRconServer({ password: PASSWORD, mode: 'silent' });
    try {
      const config = { host: '127.0.0.1', port: fake.port, password: PASSWORD };
      expect(await abortedAfter(50, (signal) => probeDirectly(rcon, config, 10_000, signal))).toEqual({
        ok: false,
        error: 'timed out after 10 s',
      });
    } finally {
      await fake.close();
    }
  });

  it('defaults to port 27015 and the status command', () => {
    expect(rconConfig.parse({ host: 'example.com', password: 'x' })).toMatchObject({ port: 27015, command: 'status' });
  });
});
