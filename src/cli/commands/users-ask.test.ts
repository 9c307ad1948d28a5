// `warden users create` without --email or --role: on a terminal it asks; off one it names the missing flags.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askForMissing } from './users-ask.js';

function terminal(answers: string[]) {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const output = new PassThrough();
  let shown = '';
  // Each prompt written is answered with the next line, as a person would.
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    if (/: $/.test(chunk.toString())) setImmediate(() => input.write(`${answers.shift() ?? ''}\r`));
  });
  return { io: { input, output }, shown: () => shown };
}

describe('users create asking for what is missing', () => {
  it('asks on a terminal for the email, the role (owner when left empty, again when unknown) and the name', async () => {
    const t = terminal(['', 'pat@example.com', 'boss', '', 'Pat']);
    const options = await askForMissing({}, t.io);
    expect(options).toEqual({ email: 'pat@example.com', role: 'owner', name: 'Pat' });
    expect(t.shown()).toContain('Email address: ');
    expect(t.shown()).toContain('expected one of viewer, editor, admin, owner');
  });

  it('asks only for what was not given', async () => {
    const t = terminal(['editor', '']);
    expect(await askForMissing({ email: 'ed@example.com' }, t.io)).toEqual({ email: 'ed@example.com', role: 'editor' });
    expect(t.shown()).not.toContain('Email address');
  });

  it('off a terminal, fails naming exactly the missing flags', async () => {
    const io = { input: new PassThrough(), output: new PassThrough() };
    await expect(askForMissing({ role: 'owner' }, io)).rejects.toThrow(
      /^missing --email <email> \(their email address, how they sign in\);/,
    );
    await expect(askForMissing({}, io)).rejects.toThrow(
      'missing --email <email> (their email address, how they sign in) and --role <role> (one of viewer, editor, admin, owner)',
    );
    // --password-stdin reads standard input: nothing is asked there, even on a terminal.
    await expect(
      askForMissing(
        { passwordStdin: true, role: 'owner' },
        { input: Object.assign(new PassThrough(), { isTTY: true }), output: new PassThrough() },
      ),
    ).rejects.toThrow('missing --email');
  });

  it('changes nothing when everything was given', async () => {
    const given = { email: 'a@example.com', role: 'viewer' as const };
    expect(await askForMissing(given, { input: new PassThrough(), output: new PassThrough() })).toBe(given);
  });
});
