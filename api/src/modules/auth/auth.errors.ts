import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, UnauthenticatedError } from '../../shared/errors.js';

/** The words of the auth domain's answers, failures and successes alike (the skins send the successes as messages). */
export const authMessages = {
  passwordCorrect: 'Password is correct',
  passwordUpdated: 'Password updated',
  passwordCreated: 'Password has been created',
  resetSent: 'If an account exists for that email, we have sent a link to reset the password. It works once, for one hour.',
  resetTokenMissing: 'A reset link is required to set a new password. Please ask for a reset email.',
  signedOut: 'Signed out',
  signedOutEverywhere: 'Signed out on every device',
} as const;

/** Every error the auth domain answers with. */
export const AuthErrors = {
  signInFailed: () => new UnauthenticatedError('Invalid email or password'),
  invalidToken: () => new UnauthenticatedError('Invalid token'),
  sessionExpired: () => new UnauthenticatedError('Your session has expired, please sign in again'),
  sessionEnded: () => new UnauthenticatedError('You have been signed out, please sign in again'),
  emailTaken: () => new ConflictError('An account with this email already exists'),
  passwordIncorrect: () => new InvalidInputError('Password is incorrect'),
  resetLinkInvalid: () => new NotFoundError('This reset link is invalid or has expired. Please ask for a new one.'),
  checkFirst: () => new ForbiddenError('Please confirm your current password first'),
  suspended: (until: Date | null) =>
    new ForbiddenError(
      `This account is suspended ${until ? `until ${until.toISOString().replace('T', ' ').slice(0, 16)} UTC` : 'until a moderator lifts the suspension'}: you cannot sign in (docs/trust.md#suspensions)`,
    ),
} as const;
