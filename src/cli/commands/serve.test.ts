import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { serveCommand } from './serve.js';

/** Parses `warden serve …` as the CLI does; the action (starting the server) must not run for a refused flag. */
async function refusal(args: string[]): Promise<{ error: unknown; stderr: string }> {
  let stderr = '';
  const command = serveCommand()
    .exitOverride()
    .configureOutput({ writeErr: (s) => (stderr += s), writeOut: () => {} });
  try {
    await command.parseAsync(args, { from: 'user' });
  } catch (error) {
    return { error, stderr };
  }
  throw new Error(`serve ${args.join(' ')} was accepted`);
}

describe('warden serve --port', () => {
  it.each([['-1'], ['65536'], ['abc'], ['80.5']])(
    'refuses %s before anything starts, naming the flag',
    async (port) => {
      const { error, stderr } = await refusal(['--port', port]);
      expect(error).toBeInstanceOf(CommanderError);
      expect((error as CommanderError).exitCode).toBe(1);
      expect(stderr).toBe(
        `error: option '-p, --port <port>' argument '${port}' is invalid. expected a port number from 0 to 65535.\n`,
      );
    },
  );
});
