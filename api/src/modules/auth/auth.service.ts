import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import bcrypt from 'bcrypt';
import { z } from 'zod';
import type { Orm } from '../../db/orm.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, UnauthenticatedError } from '../../shared/errors.js';
import { emailSchema, firstMessage, messages, passwordSchema } from '../../shared/validation.js';
import type { Mailer } from '../mail/mailer.js';
import { passwordResetMail } from '../mail/templates.js';
import { type IUser, User } from '../users/user.entity.js';
import { PasswordResetToken } from './password-reset-token.entity.js';
import type { RateLimits } from './rate-limits.js';
import type { TokenService, Viewer } from './tokens.js';

export const BCRYPT_COST = 12;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** How long a successful password check lets the SPEC's update-password call go without the old password. */
export const PASSWORD_CHECK_WINDOW_MS = 10 * 60 * 1000;

export const messagesOf = {
  signInFailed: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  passwordIncorrect: 'Password is incorrect',
  passwordCorrect: 'Password is correct',
  passwordUpdated: 'Password updated',
  passwordCreated: 'Password has been created',
  resetSent: 'If an account exists for that email, we have sent a link to reset the password. It works once, for one hour.',
  resetLinkInvalid: 'This reset link is invalid or has expired. Please ask for a new one.',
  resetTokenMissing: 'A reset link is required to set a new password. Please ask for a reset email.',
  checkFirst: 'Please confirm your current password first',
} as const;

export interface RequestMeta {
  ip: string;
}

export interface AuthResult {
  token: string;
  user: IUser;
}

const signUpSchema = z.object({ email: emailSchema, password: passwordSchema, hasOptedIn: z.boolean().default(false) });
const signInSchema = z.object({ email: emailSchema, password: z.string().trim().min(1, messages.passwordRequired) });
const resetSchema = z.object({
  email: emailSchema,
  token: z.string({ error: messagesOf.resetTokenMissing }).trim().min(1, messagesOf.resetTokenMissing),
  newPassword: passwordSchema,
});

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidInputError(firstMessage(result.error));
  return result.data;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Compared against when the email is unknown, so a wrong email costs as long as a wrong password.
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_COST);

/** Accounts: sign-up, sign-in, tokens, password check/change, and reset by email. */
export class AuthService {
  constructor(
    private readonly orm: Orm,
    private readonly tokens: TokenService,
    private readonly limits: RateLimits,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  async signUp(input: { email: unknown; password: unknown; hasOptedIn?: unknown }, meta: RequestMeta): Promise<AuthResult> {
    const { email, password, hasOptedIn } = parse(signUpSchema, input);
    await this.limits.consume([['signUpPerIp', meta.ip]]);
    const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
    const em = this.em();
    const user = em.create(User, { email, passwordHash, hasOptedIn } as never) as IUser;
    try {
      await em.persist(user).flush();
    } catch (error) {
      if (String((error as Error).message).includes('app_user_email_unique')) throw new ConflictError(messagesOf.emailTaken);
      throw error;
    }
    return { token: await this.tokens.sign(user.id), user };
  }

  async signIn(input: { email: unknown; password: unknown }, meta: RequestMeta): Promise<AuthResult> {
    const { email, password } = parse(signInSchema, input);
    await this.limits.consume([
      ['signInPerIp', meta.ip],
      ['signInPerEmail', email],
    ]);
    const user = await this.em().findOne(User, { email });
    const matches = await bcrypt.compare(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !matches) throw new UnauthenticatedError(messagesOf.signInFailed);
    return { token: await this.tokens.sign(user.id), user };
  }

  /** The viewer behind a token; 401 when it is forged, expired, or its account is gone. */
  async authenticate(token: string): Promise<Viewer> {
    const viewer = await this.tokens.verify(token);
    const exists = await this.em().count(User, { id: viewer.id });
    if (!exists) throw new UnauthenticatedError('Invalid token');
    return viewer;
  }

  async checkPassword(userId: string, password: unknown): Promise<void> {
    if (typeof password !== 'string' || !password.trim()) throw new InvalidInputError(messages.passwordRequired);
    await this.em().transactional(async (em) => {
      const user = await em.findOneOrFail(User, userId);
      if (!(await bcrypt.compare(password.trim(), user.passwordHash))) throw new InvalidInputError(messagesOf.passwordIncorrect);
      user.passwordCheckedAt = new Date();
    });
  }

  /**
   * Changes the password. The old password is required, either in this call or through a password check within the last
   * ten minutes (the SPEC's settings screen checks first, then updates): a stolen token alone cannot take the account.
   */
  async changePassword(userId: string, input: { oldPassword?: unknown; newPassword: unknown }): Promise<void> {
    const newPassword = parse(passwordSchema, input.newPassword);
    await this.em().transactional(async (em) => {
      const user = await em.findOneOrFail(User, userId);
      if (input.oldPassword !== undefined && input.oldPassword !== null) {
        const old = typeof input.oldPassword === 'string' ? input.oldPassword.trim() : '';
        if (!(await bcrypt.compare(old, user.passwordHash))) throw new InvalidInputError(messagesOf.passwordIncorrect);
      } else if (!user.passwordCheckedAt || Date.now() - user.passwordCheckedAt.getTime() > PASSWORD_CHECK_WINDOW_MS) {
        throw new ForbiddenError(messagesOf.checkFirst);
      }
      user.passwordHash = await bcrypt.hash(newPassword, BCRYPT_COST);
      user.passwordCheckedAt = null;
    });
  }

  /** Mails a single-use link; known and unknown emails get the same answer, so nobody can probe who is a member. */
  async requestPasswordReset(rawEmail: unknown, meta: RequestMeta): Promise<string> {
    const email = parse(emailSchema, rawEmail);
    await this.limits.consume([
      ['resetPerIp', meta.ip],
      ['resetPerEmail', email],
    ]);
    const em = this.em();
    const user = await em.findOne(User, { email });
    if (!user) return messagesOf.resetSent;
    const token = randomBytes(32).toString('base64url');
    em.create(PasswordResetToken, { user, tokenHash: sha256(token), expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS) } as never);
    await em.flush();
    const link = `${this.publicUrl}/signin/password-reset?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`;
    await this.mailer.send(passwordResetMail(email, link));
    return messagesOf.resetSent;
  }

  /** Sets a new password with a reset link's token: the email alone never changes a password. */
  async resetPassword(input: { email: unknown; token?: unknown; newPassword: unknown }): Promise<string> {
    const { email, token, newPassword } = parse(resetSchema, input);
    const passwordHash = await bcrypt.hash(newPassword, BCRYPT_COST);
    await this.em().transactional(async (em) => {
      const reset = await em.findOne(PasswordResetToken, { tokenHash: sha256(token) }, { populate: ['user'] });
      const valid = reset && !reset.usedAt && reset.expiresAt.getTime() > Date.now() && reset.user.email === email;
      if (!reset || !valid) throw new NotFoundError(messagesOf.resetLinkInvalid);
      reset.usedAt = new Date();
      reset.user.passwordHash = passwordHash;
      // One reset spends every outstanding link of the account.
      await em.nativeUpdate(PasswordResetToken, { user: reset.user, usedAt: null, id: { $ne: reset.id } }, { usedAt: new Date() });
    });
    return messagesOf.passwordCreated;
  }
}
