// What `warden users create` needs and was not given: asked for on a terminal; off one (a script, a pipe), named
// exactly, flag by flag, so the command fails saying what to add.
import { createInterface } from 'node:readline/promises';
import { ROLES, type Role } from '../../domain/account.js';

interface CreateOptions {
  email?: string;
  name?: string;
  role?: Role;
  org?: string;
  passwordStdin?: boolean;
}

const FLAGS = {
  email: '--email <email> (their email address, how they sign in)',
  role: `--role <role> (one of ${ROLES.join(', ')})`,
};

/** The options with email and role filled in; throws naming the missing flags when it cannot ask. */
export async function askForMissing(
  options: CreateOptions,
  io: { input: NodeJS.ReadableStream & { isTTY?: boolean }; output: NodeJS.WritableStream } = {
    input: process.stdin,
    output: process.stderr,
  },
): Promise<CreateOptions & { email: string; role: Role }> {
  const missing = (['email', 'role'] as const).filter((flag) => options[flag] === undefined);
  if (missing.length === 0) return options as CreateOptions & { email: string; role: Role };
  // --password-stdin reads standard input: nothing can be asked there.
  if (!io.input.isTTY || options.passwordStdin)
    throw new Error(
      `missing ${missing.map((flag) => FLAGS[flag]).join(' and ')}; for example: warden users create --email you@example.com --role owner`,
    );
  const rl = createInterface({ input: io.input, output: io.output, terminal: true });
  try {
    let email = options.email;
    while (!email) email = (await rl.question('Email address: ')).trim() || undefined;
    let role = options.role;
    while (!role) {
      const answer = (await rl.question(`Role (${ROLES.join(', ')}) [owner]: `)).trim().toLowerCase() || 'owner';
      if ((ROLES as readonly string[]).includes(answer)) role = answer as Role;
      else io.output.write(`expected one of ${ROLES.join(', ')}\n`);
    }
    let name = options.name;
    if (name === undefined) name = (await rl.question(`Name [${email.split('@')[0]}]: `)).trim() || undefined;
    return { ...options, email, role, ...(name === undefined ? {} : { name }) };
  } finally {
    rl.close();
  }
}
