// The fields people type into the account forms, checked the same by the API, the CLI and every verb.
import { z } from 'zod';
import { ACCOUNT_LIMITS } from '../../domain/account.js';
import { text } from '../../domain/fields.js';

const EMAIL_MESSAGE = 'expected an email address';

/** Trimmed and lower-cased: one account per address, however it is typed. */
export const emailField = () =>
  z
    .string({ error: EMAIL_MESSAGE })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: EMAIL_MESSAGE }).max(254, { error: 'expected at most 254 characters' }));

/** A person's display name. */
export const userNameField = () => text(100);

/** A password being chosen: ACCOUNT_LIMITS.passwordMinChars to passwordMaxChars characters, kept as typed. */
export const newPasswordField = () =>
  z
    .string({ error: 'expected a password' })
    .min(ACCOUNT_LIMITS.passwordMinChars, { error: `expected at least ${ACCOUNT_LIMITS.passwordMinChars} characters` })
    .max(ACCOUNT_LIMITS.passwordMaxChars, { error: `expected at most ${ACCOUNT_LIMITS.passwordMaxChars} characters` });

/** A password being checked: anything up to the longest one could have chosen (longer ones are never right). */
export const givenPasswordField = () =>
  z
    .string({ error: 'expected a password' })
    .min(1, { error: 'expected a password' })
    .max(ACCOUNT_LIMITS.passwordMaxChars, { error: `expected at most ${ACCOUNT_LIMITS.passwordMaxChars} characters` });

/** A TOTP code (6 digits) or a recovery code, as typed (spaces and dashes are ignored). */
export const secondFactorField = () =>
  z
    .string({ error: 'expected a 6-digit code or a recovery code' })
    .trim()
    .min(1, { error: 'expected a 6-digit code or a recovery code' })
    .max(64);

/** A one-time token from a link (`wdu_…`, `wdi_…`): its shape is checked by the verb, which answers 410 for a bad one. */
export const linkTokenField = () =>
  z
    .string({ error: 'expected the token from the link' })
    .min(1, { error: 'expected the token from the link' })
    .max(200);
