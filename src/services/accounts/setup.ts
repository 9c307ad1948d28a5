// First run: while no account exists, a one-time setup link (printed once in the server's start-up log) lets whoever
// holds it create the first user, who becomes the owner of every organization but the built-in demo (or of a new one).
import { z } from 'zod';
import { ACCOUNT_LIMITS } from '../../domain/account.js';
import { UnusableLinkError } from '../../domain/account-errors.js';
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { generateSecret, hashSecret, isSecretOfKind } from '../../domain/tokens.js';
import { parseInput, type ServiceContext, uniquely, withTransaction } from '../context.js';
import { emailField, linkTokenField, newPasswordField, userNameField } from './account-fields.js';
import { issueSession } from './issue-session.js';
import type { Client } from './login.js';
import { firstOrganizationInput, joinAll, organizationsForFirstOwner } from './own-organization.js';
import { hashAccountPassword } from './password.js';
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
    await store.accountTokens.insert({ hash: hashSecret(token), purpose: 'setup', userId: null, createdAt: now, expiresAt, usedAt: null });
  });
  return { url: `${ctx.baseUrl ?? ''}${SETUP_PATH}?token=${token}`, expiresAt };
}

export const setupInput = z
  .object({
    token: linkTokenField().describe('The token of the setup link (wdu_…), from the server’s start-up log.'),
    email: emailField(),
    name: userNameField(),
    password: newPasswordField(),
    organization: firstOrganizationInput
      .optional()
      .describe('The organization to create when there is none but the demo (key `main`, "My organization" when left out); ignored otherwise.'),
  })
  .strict();

/** Uses the setup link: creates the first user as owner, and signs them in. */
export async function completeSetup(ctx: ServiceContext, input: z.input<typeof setupInput> & Client): Promise<SignedIn> {
  const { userAgent, address, ...given } = input;
  const { token, email, name, password, organization } = parseInput(setupInput, given);
  const passwordHash = await hashAccountPassword(password);
  const userId = newId('usr');
  await withTransaction(ctx, async (tx) => {
    // Two setups at once (two processes' links) wait for each other here: only the first finds no user.
    await tx.store.exclusive('accounts-setup');
    if ((await tx.store.users.count()) > 0) throw new ConflictError('Warden is set up already: sign in, or ask an owner for an invitation.');
    const now = tx.clock.now();
    if (!isSecretOfKind('accountToken', token) || !(await tx.store.accountTokens.use(hashSecret(token), 'setup', now)))
      throw new UnusableLinkError('link-unusable', 'This setup link was used, has expired, or was replaced by a newer one: restart Warden for a new link.');
    // The setup link is the operator's (from the server's log): they vouch for the first owner's address.
    await uniquely(tx, () => tx.store.users.insert({ id: userId, email, name, passwordHash, emailVerifiedAt: now }, now), 'Another account uses this email address.');
    const owned = await organizationsForFirstOwner(tx, organization ?? firstOrganizationInput.parse({}));
    await joinAll(tx, { id: userId, name, email }, owned, 'owner', 'setup');
  });
  const { token: sessionToken, session } = await issueSession(ctx, { userId, userAgent, address });
  return { token: sessionToken, session, account: await describeAccount(ctx, { userId }) };
}
