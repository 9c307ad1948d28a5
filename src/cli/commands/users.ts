// `warden users create|reset-password|set-email|list`: the operator's hand on accounts, working while the server runs. Links
// that set a password are secrets: printed alone on stdout, once; everything else goes to stderr.
import { Command, Option } from 'commander';
import { readSettings } from '../../config/settings.js';
import { ROLES, type Role } from '../../domain/account.js';
import { createUser } from '../../services/accounts/create-user.js';
import { setUserEmail } from '../../services/accounts/email-change.js';
import { listUsers } from '../../services/accounts/list-users.js';
import { issuePasswordReset, passwordLinkFor } from '../../services/accounts/password-reset.js';
import type { ServiceContext } from '../../services/context.js';
import { guessNote, serverAddress } from '../../services/server-address.js';
import { formatTime, printTable, withServices } from '../session.js';
import { askForMissing } from './users-ask.js';

export function usersCommand(): Command {
  const users = new Command('users').description('Manage user accounts (the dashboard at /app).');
  users
    .command('create')
    .description('Create a user and print a one-time link that sets their password (or read it from stdin).')
    .option('--email <email>', 'their email address (how they sign in; asked for on a terminal)')
    .option('--name <name>', 'their name (default: the part of the email before @)')
    .addOption(new Option('--role <role>', 'their role (asked for on a terminal)').choices(ROLES))
    .option('--org <key>', 'the organization they join (default: the only one; an owner: every one but the demo)')
    .option('--password-stdin', 'read the password from standard input instead of printing a link')
    .action(async (given: { email?: string; name?: string; role?: Role; org?: string; passwordStdin?: boolean }) => {
      const options = await askForMissing(given);
      const password = options.passwordStdin ? await readPassword() : undefined;
      await withLinks(
        async (ctx) => {
          const { user, organizations } = await createUser(ctx, {
            email: options.email,
            role: options.role,
            ...(options.name === undefined ? {} : { name: options.name }),
            ...(password === undefined ? {} : { password }),
            ...(options.org === undefined ? {} : { organization: options.org }),
          });
          process.stderr.write(
            `created user ${user.email} (${user.id}), ${options.role} of ${organizations.map((o) => o.key).join(', ')}\n`,
          );
          if (password !== undefined) return;
          const link = await passwordLinkFor(ctx, user.id);
          process.stderr.write(
            `they set their password at this link, valid until ${formatTime(link.expiresAt)} and shown only once:\n`,
          );
          process.stdout.write(`${link.url}\n`);
        },
        { printsLinks: !options.passwordStdin },
      );
    });
  users
    .command('reset-password')
    .description('Print a one-time link that sets a new password (using it ends every session of the user).')
    .requiredOption('--email <email>', 'the user’s email address')
    .action(async (options: { email: string }) => {
      await withLinks(async (ctx) => {
        const link = await issuePasswordReset(ctx, { email: options.email });
        process.stderr.write(
          `password link for ${options.email.trim().toLowerCase()}, valid until ${formatTime(link.expiresAt)} and shown only once:\n`,
        );
        process.stdout.write(`${link.url}\n`);
      });
    });
  users
    .command('set-email')
    .description('Change a user’s email address at once, as confirmed (the operator vouches for it; no mail is sent).')
    .requiredOption('--email <email>', 'the user’s current email address')
    .requiredOption('--new-email <email>', 'the address they use from now on')
    .action(async (options: { email: string; newEmail: string }) => {
      await withLinks(
        async (ctx) => {
          const user = await setUserEmail(ctx, { email: options.email, newEmail: options.newEmail });
          process.stderr.write(`user ${user.id} now signs in as ${user.email}\n`);
        },
        { printsLinks: false },
      );
    });
  users
    .command('list')
    .description('List users with their organizations and roles.')
    .action(async () => {
      await withServices(async (ctx) => {
        printTable(
          ['ID', 'EMAIL', 'CONFIRMED', 'NAME', 'PASSWORD', 'TOTP', 'ORGANIZATIONS', 'CREATED'],
          (await listUsers(ctx)).map((u) => [
            u.id,
            u.email,
            u.emailVerifiedAt === null ? 'no' : 'yes',
            u.name,
            u.hasPassword ? 'yes' : 'no',
            u.totpEnabledAt === null ? 'off' : 'on',
            u.organizations.map((o) => `${o.key}:${o.role}`).join(',') || '-',
            formatTime(u.createdAt),
          ]),
        );
      });
    });
  return users;
}

/**
 * The verbs' context acting as the CLI (what the audit log records), with the server's address for links: WARDEN_BASE_URL,
 * else the one the server on this database recorded, else http://localhost:PORT with a note that it is a guess.
 */
function withLinks<T>(run: (ctx: ServiceContext) => Promise<T>, { printsLinks = true } = {}): Promise<T> {
  return withServices(async (ctx) => {
    const address = await serverAddress(ctx, readSettings().port);
    if (printsLinks) process.stderr.write(guessNote(address));
    return run({ ...ctx, actor: { kind: 'system', name: 'cli' }, baseUrl: address.url });
  });
}

/** Standard input, without the line break a shell adds (`echo "$PASSWORD" | warden users create … --password-stdin`). */
async function readPassword(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
