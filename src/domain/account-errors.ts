// The errors of signing in and of one-time links (setup, password reset, invitations), answered like every WardenError.
import { fixedAnswerError, ValidationError, WardenError } from './errors.js';

/**
 * Why a sign-in was refused (401). `invalid-credentials` is the one answer for an unknown email and a wrong password,
 * so the answer does not tell which; `second-factor-required` asks the browser for a TOTP or recovery code.
 */
export type SignInProblem = 'invalid-credentials' | 'second-factor-required' | 'invalid-second-factor';

export class SignInError extends WardenError {
  readonly status = 401;
  readonly title: string;
  constructor(
    readonly code: SignInProblem,
    detail: string,
  ) {
    super(detail);
    this.title = code === 'second-factor-required' ? 'Second factor required' : 'Not signed in';
  }

  /** A wrong guess (counted against the sign-in limits); asking for the second factor is not one. */
  get wrongGuess(): boolean {
    return this.code !== 'second-factor-required';
  }
}

/** A signed-in user's wrong current password or code (400 naming the field): counted like a wrong sign-in. */
export class WrongSecretError extends ValidationError {
  constructor(field: string, message: string) {
    super([{ path: field, message }], message);
  }
}

/**
 * A sensitive change (recovery codes, TOTP on or off, a new email) asked of a session that has not proven its user
 * lately (403): send the password or a code with the request, or sign in again.
 */
export class ReauthenticationRequiredError extends fixedAnswerError(
  403,
  'Confirm it is you',
  'reauthentication-required',
) {}

/** What needs a link mailed to an address (a new email) on a server that sends no mail (409). */
export class MailRequiredError extends fixedAnswerError(409, 'Mail needed', 'mail-required') {}

/** The mail server refused or could not be reached (503): nothing was mailed; the caller may try again later. */
export class MailNotSentError extends fixedAnswerError(503, 'Mail not sent', 'mail-not-sent') {}

/** Why a one-time link cannot be used any more (410): the browser shows it and offers to ask for a new one. */
export type UnusableLinkProblem = 'link-unusable' | 'invitation-expired' | 'invitation-revoked' | 'invitation-used';

export class UnusableLinkError extends WardenError {
  readonly status = 410;
  readonly title = 'Link no longer valid';
  constructor(
    readonly code: UnusableLinkProblem,
    detail: string,
  ) {
    super(detail);
  }
}

/** Whether an error is a wrong guess at a secret (a sign-in, a current password, a code): what the attempt limits count. */
export function isWrongGuess(error: unknown): boolean {
  return (error instanceof SignInError && error.wrongGuess) || error instanceof WrongSecretError;
}
