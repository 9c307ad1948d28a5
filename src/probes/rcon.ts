// Source RCON over TCP (also Minecraft's RCON): authenticate, run a command, match its output.
import { z } from 'zod';
import { describeNetworkError } from '../net/network-error.js';
import { openTcp } from '../net/socket-exchange.js';
import { type AnswerMatcher, compileMatcher } from './answer.js';
import { encodeRconPacket, RCON_TYPE, RconDecoder, type RconPacket } from './codecs/rcon-packet.js';
import { exchangeOver, stopwatch } from './exchange.js';
import { host, port, secret } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';

/** What one RCON check accepts from the server, and how long it listens for more output. */
export const RCON_LIMITS = {
  /** Largest size field accepted; SRCDS sends at most 4096 bytes of body per packet, Minecraft up to 4096 characters. */
  maxPacketBytes: 64 * 1024,
  /** All bytes read in one check. */
  maxTotalBytes: 1024 * 1024,
  /** Output is complete after this long without a packet, for servers that never echo the end marker. */
  quietMs: 300,
  /** Longest run of an `expect` regular expression, so a catastrophic pattern cannot stall the runner. */
  expectRunMs: 100,
  /** Characters of output kept in `data.output`. */
  outputChars: 2048,
  /** Characters of the first output line shown as the message. */
  messageChars: 200,
} as const;

export const rconConfig = z
  .object({
    host: host(),
    port: port().default(27015).describe('27015 for Source games, 25575 for Minecraft.'),
    password: secret('RCON password'),
    command: z.string().min(1).max(512).default('status').describe('The command to run.'),
    expect: z
      .string()
      .min(1)
      .max(512)
      .refine((text) => !('error' in compileExpect(text)), { error: 'expected a valid /regular expression/flags' })
      .optional()
      .describe('Text the output must contain, or a /regular expression/ it must match.'),
  })
  .strict();

export const rcon = defineProbe({
  id: 'rcon',
  label: 'RCON',
  config: rconConfig,
  probe: async (config, ctx) => {
    const matcher = config.expect === undefined ? undefined : compileExpect(config.expect);
    if (matcher && 'error' in matcher) return { ok: false, error: matcher.error };
    const elapsed = stopwatch();
    const exchange = await runCommand(config, ctx);
    if ('error' in exchange) return { ok: false, error: exchange.error };
    const latencyMs = elapsed();
    // The output may quote the password (`rcon_password` prints it): it never leaves the probe.
    const output = exchange.output.split(config.password).join('***');
    const result: ProbeResult = {
      ok: true,
      latencyMs,
      message: firstLine(output),
      data: { output: truncate(output, RCON_LIMITS.outputChars) },
    };
    if (!matcher) return result;
    const matched = matcher.test(output);
    if (matched === 'too-slow')
      return { ...result, ok: false, error: 'the expect pattern took too long to run on the output' };
    return matched ? result : { ...result, ok: false, error: `output does not ${matcher.describe}` };
  },
});

/** "/pattern/flags" is a regular expression; anything else is a substring. */
function compileExpect(expect: string): AnswerMatcher | { error: string } {
  return compileMatcher(expect, {
    name: 'expect',
    runMs: RCON_LIMITS.expectRunMs,
    plain: { describe: `contain "${truncate(expect, 100)}"`, test: (output) => output.includes(expect) },
    describePattern: `match ${truncate(expect, 100)}`,
  });
}

type Exchange = { output: string } | { error: string };

/** Connects, authenticates, sends the command and an empty marker, and collects output until the marker comes back. */
function runCommand(
  config: { host: string; port: number; password: string; command: string },
  ctx: ProbeContext,
): Promise<Exchange> {
  const ids = randomIds();
  const decoder = new RconDecoder(RCON_LIMITS.maxPacketBytes);
  const open = () => openTcp(ctx, config.host, config.port);
  return exchangeOver(open, ctx, (socket, exchange) => {
    const { finish, after } = exchange;
    let phase: 'connecting' | 'auth' | 'command' = 'connecting';
    let bytes = 0;
    let output = '';
    let answered = false;
    let quiet: NodeJS.Timeout | undefined;

    const onPacket = (packet: RconPacket) => {
      if (phase === 'auth') {
        // SRCDS sends an empty RESPONSE_VALUE before the AUTH_RESPONSE.
        if (packet.type === RCON_TYPE.responseValue) return;
        if (packet.type !== RCON_TYPE.authResponse)
          return finish({ error: `unexpected response: packet type ${packet.type} during authentication` });
        if (packet.id === -1) return finish({ error: 'authentication failed (wrong RCON password?)' });
        if (packet.id !== ids.auth)
          return finish({ error: `unexpected response: authentication answered with id ${packet.id}` });
        phase = 'command';
        socket.write(encodeRconPacket({ id: ids.command, type: RCON_TYPE.execCommand, body: config.command }));
        // The server answers in order, so the marker's echo arrives after the last packet of the command's output.
        socket.write(encodeRconPacket({ id: ids.marker, type: RCON_TYPE.responseValue, body: '' }));
        return;
      }
      if (packet.id === ids.marker) return finish({ output });
      if (packet.id === -1) return finish({ error: 'authentication failed (wrong RCON password?)' });
      if (packet.id !== ids.command) return;
      answered = true;
      output += packet.body;
      // Each packet of output restarts the quiet period.
      if (quiet) quiet.refresh();
      else quiet = after(RCON_LIMITS.quietMs, () => finish({ output }));
    };

    socket.once('connect', () => {
      phase = 'auth';
      socket.write(encodeRconPacket({ id: ids.auth, type: RCON_TYPE.auth, body: config.password }));
    });
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > RCON_LIMITS.maxTotalBytes)
        return finish({
          error: `unexpected response: more than ${RCON_LIMITS.maxTotalBytes / 1024 / 1024} MiB of output`,
        });
      try {
        for (const packet of decoder.push(chunk)) {
          if (exchange.settled) return;
          onPacket(packet);
        }
      } catch (error) {
        finish({ error: `unexpected response: ${error instanceof Error ? error.message : String(error)}` });
      }
    });
    socket.once('close', () => {
      if (answered) return finish({ output });
      if (phase === 'auth')
        return finish({ error: 'connection closed by the server during authentication (wrong RCON password?)' });
      finish({ error: 'connection closed by the server before the command was answered' });
    });
    socket.once('error', (error) =>
      finish(answered ? { output } : { error: describeNetworkError(error, ctx.timeoutMs) }),
    );
  });
}

/** Three consecutive positive ids: never -1, which means "bad password". */
function randomIds(): { auth: number; command: number; marker: number } {
  const auth = 1 + Math.floor(Math.random() * 0x3fffffff);
  return { auth, command: auth + 1, marker: auth + 2 };
}

function firstLine(output: string): string {
  const line = output
    .split(/\r?\n/)
    .find((text) => text.trim().length > 0)
    ?.trim();
  return line ? truncate(line, RCON_LIMITS.messageChars) : 'command ran (no output)';
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
