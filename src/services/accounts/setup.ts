// First run: while no account exists, a one-time setup link (printed once in the server's start-up log) lets whoever
// holds it create the first user, who becomes the owner of every organization but the built-in demo (or of a new one).
import { z } from 'zod';
import { ACCOUNT_LIMITS } from '../../domain/account.js';
import { UnusableLinkError, WrongSecretError } from '../../domain/account-errors.js';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { generateSecret, hashSecret, isSecretOfKind } from '../../domain/tokens.js';
import { parseInput, type ServiceContext, uniquely, withTransaction } from '../context.js';
import { emailField, linkTokenField, newPasswordField, userNameField } from './account-fields.js';
import { issueSession } from './issue-session.js';
import type { Client } from './login.js';
import { firstOrganizationInput, joinAll, organizationsForFirstOwner } from './own-organization.js';
import { hashAccountPassword } from './password.js';
import { normalizeSetupCode, setupCodeHash } from './setup-code.js';
import { describeAccount, type SignedIn } from './view.js';

/** The path of the dashboard's page that takes a setup token. */
export const SETUP_PATH = '/app/setup';

/** Whether Warden awaits its first user (the setup link's owner): no account exists yet. */
export async function setupRequired(ctx: ServiceContext): Promise<boolean> {
  return (await ctx.store.users.count()) === 0;
}

/**
 * With no user yet: a new setup link (earlier unused ones stop working), valid ACCOUNT_LIMITS.setupTokenLifetimeMs.
 * With users: null. The token is in the link only; the store keeps its hash.
 */
export async function openSetupLink(ctx: ServiceContext): Promise<{ url: string; expiresAt: number } | null> {
  if (!(await setupRequired(ctx))) return null;
  const now = ctx.clock.now();
  const token = generateSecret('accountToken');
  const expiresAt = now + ACCOUNT_LIMITS.setupTokenLifetimeMs;
  await ctx.store.transaction(async (store) => {
    await store.accountTokens.deleteUnused('setup');
    await store.accountTokens.insert({
      hash: hashSecret(token),
      purpose: 'setup',
      userId: null,
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
  });
  return { url: `${ctx.baseUrl ?? ''}${SETUP_PATH}?token=${token}`, expiresAt };
}

export const setupInput = z
  .object({
    code: z
      .string()
      .max(40)
      .optional()
      .describe(
        'The setup code (ABCD-EFGH) the server’s start-up log and `warden setup-code` print; case, spaces and dashes do not matter. Send it or `token`.',
      ),
    token: linkTokenField().optional().describe('The token of a setup link (wdu_…), instead of `code`.'),
    email: emailField(),
    name: userNameField(),
    password: newPasswordField(),
    organization: firstOrganizationInput
      .optional()
      .describe(
        'The organization to create when there is none but the demo (key `main`, "My organization" when left out); ignored otherwise.',
      ),
  })
  .strict();

/** Uses the setup code (or link): creates the first user as owner, and signs them in. */
export async function completeSetup(
  ctx: ServiceContext,
  input: z.input<typeof setupInput> & Client,
): Promise<SignedIn> {
  const { userAgent, address, ...given } = input;
  const { code, token, email, name, password, organization } = parseInput(setupInput, given);
  if (code === undefined && token === undefined)
    throw new ValidationError([{ path: 'code', message: 'expected the setup code' }]);
  const passwordHash = await hashAccountPassword(password);
  const userId = newId('usr');
  await withTransaction(ctx, async (tx) => {
    // Two setups at once (two processes' links) wait for each other here: only the first finds no user.
    await tx.store.exclusive('accounts-setup');
    if ((await tx.store.users.count()) > 0)
      throw new ConflictError('Warden is set up already: sign in, or ask an owner for an invitation.');
    const now = tx.clock.now();
    if (code !== undefined) {
      // Looked up by its hash: how long that takes tells nothing about the code.
      const normalized = normalizeSetupCode(code);
      if (normalized === null || !(await tx.store.accountTokens.use(setupCodeHash(normalized), 'setup', now)))
        throw new WrongSecretError(
          'code',
          'is not the current setup code (it may have expired or been replaced): run `warden setup-code` for a new one',
        );
    } else if (
      !isSecretOfKind('accountToken', token ?? '') ||
      !(await tx.store.accountTokens.use(hashSecret(token ?? ''), 'setup', now))
    )
      throw new UnusableLinkError(
        'link-unusable',
        'This setup link was used, has expired, or was replaced by a newer one: restart Warden for a new link.',
      );
    // The setup link is the operator's (from the server's log): they vouch for the first owner's address.
    await uniquely(
      tx,
      () => tx.store.users.insert({ id: userId, email, name, passwordHash, emailVerifiedAt: now }, now),
      'Another account uses this email address.',
    );
    const owned = await organizationsForFirstOwner(tx, organization ?? firstOrganizationInput.parse({}));
    await joinAll(tx, { id: userId, name, email }, owned, 'owner', 'setup');
  });
  const { token: sessionToken, session } = await issueSession(ctx, { userId, userAgent, address });
  return { token: sessionToken, session, account: await describeAccount(ctx, { userId }) };
}
