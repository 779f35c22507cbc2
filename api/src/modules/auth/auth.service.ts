import { createHash, randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import bcrypt from 'bcrypt';
import type { Orm } from '../../db/orm.js';
import { parseInput } from '../../shared/inputs.js';
import type { Viewer } from '../../shared/viewer.js';
import { type Mailer, passwordResetMail } from '../mail/index.js';
import { type IUser, User, userPolicy } from '../users/index.js';
import { AuthErrors, authMessages } from './auth.errors.js';
import { currentPasswordInput, emailInput, passwordInput, resetInput, signInInput, signUpInput } from './auth.inputs.js';
import { type IPasswordResetToken, PasswordResetToken } from './password-reset-token.entity.js';
import type { RateLimits } from './rate-limits.js';
import type { SessionsService } from './sessions.service.js';

export const BCRYPT_COST = 12;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** How long a successful password check lets the documented update-password call go without the old password. */
export const PASSWORD_CHECK_WINDOW_MS = 10 * 60 * 1000;

export interface RequestMeta {
  ip: string;
}

export interface AuthResult {
  token: string;
  user: IUser;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Compared against when the email is unknown, so a wrong email costs as long as a wrong password.
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_COST);

/** Accounts: sign-up, sign-in and sign-out, password check/change, and reset by email. */
export class AuthService {
  constructor(
    private readonly orm: Orm,
    private readonly sessions: SessionsService,
    private readonly limits: RateLimits,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  async signUp(input: { email: unknown; password: unknown; hasOptedIn?: unknown }, meta: RequestMeta): Promise<AuthResult> {
    const { email, password, hasOptedIn } = parseInput(signUpInput, input);
    await this.limits.consume([['signUpPerIp', meta.ip]]);
    const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
    try {
      return await this.em().transactional(async (em) => {
        const user = em.create(User, { email, passwordHash, hasOptedIn });
        await em.persist(user).flush();
        return { token: await this.sessions.begin(em, user.id), user };
      });
    } catch (error) {
      if (String((error as Error).message).includes('app_user_email_unique')) throw AuthErrors.emailTaken();
      throw error;
    }
  }

  async signIn(input: { email: unknown; password: unknown }, meta: RequestMeta): Promise<AuthResult> {
    const { email, password } = parseInput(signInInput, input);
    await this.limits.consume([
      ['signInPerIp', meta.ip],
      ['signInPerEmail', email],
    ]);
    const em = this.em();
    const user = await em.findOne(User, { email });
    const matches = await bcrypt.compare(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !matches) throw AuthErrors.signInFailed();
    // Only the right password learns of a suspension: the message says nothing about accounts to anyone else.
    if (userPolicy.isSuspended({ suspendedAt: user.suspendedAt ?? null, suspendedUntil: user.suspendedUntil ?? null }))
      throw AuthErrors.suspended(user.suspendedUntil ?? null);
    return { token: await em.transactional((inner) => this.sessions.begin(inner, user.id)), user };
  }

  /** The viewer behind a token; 401 when it is forged or expired, or its session has ended (its account gone with it). */
  authenticate(token: string): Promise<Viewer> {
    return this.sessions.authenticate(token);
  }

  /** Ends the session the request came with (this device). */
  async signOut(viewer: Viewer): Promise<void> {
    await this.sessions.end(viewer.sessionId);
  }

  /** Ends every session of the member, this one included; how many ended. */
  signOutEverywhere(viewer: Viewer): Promise<number> {
    return this.sessions.endAll(viewer.id);
  }

  async checkPassword(userId: string, rawPassword: unknown, meta: RequestMeta): Promise<void> {
    const password = parseInput(currentPasswordInput, rawPassword);
    await this.limits.consume([
      ['passwordCheckPerIp', meta.ip],
      ['passwordCheckPerMember', userId],
    ]);
    await this.em().transactional(async (em) => {
      const user = await em.findOneOrFail(User, userId);
      if (!(await bcrypt.compare(password, user.passwordHash))) throw AuthErrors.passwordIncorrect();
      user.passwordCheckedAt = new Date();
    });
  }

  /**
   * Changes the password. The old password is required, either in this call or through a password check within the last
   * ten minutes (the documented settings screen checks first, then updates): a stolen token alone cannot take the account.
   * Every other session of the member ends with the old password; the one that changed it stays signed in.
   */
  async changePassword(viewer: Viewer, input: { oldPassword?: unknown; newPassword: unknown }, meta: RequestMeta): Promise<void> {
    const newPassword = parseInput(passwordInput, input.newPassword);
    await this.limits.consume([
      ['passwordCheckPerIp', meta.ip],
      ['passwordCheckPerMember', viewer.id],
    ]);
    const ended = await this.em().transactional(async (em) => {
      const user = await em.findOneOrFail(User, viewer.id);
      if (input.oldPassword !== undefined && input.oldPassword !== null) {
        const old = typeof input.oldPassword === 'string' ? input.oldPassword.trim() : '';
        if (!(await bcrypt.compare(old, user.passwordHash))) throw AuthErrors.passwordIncorrect();
      } else if (!user.passwordCheckedAt || Date.now() - user.passwordCheckedAt.getTime() > PASSWORD_CHECK_WINDOW_MS) {
        throw AuthErrors.checkFirst();
      }
      user.passwordHash = await bcrypt.hash(newPassword, BCRYPT_COST);
      user.passwordCheckedAt = null;
      return this.sessions.endWithin(em, viewer.id, viewer.sessionId);
    });
    this.sessions.forget(ended);
  }

  /** Mails a single-use link; known and unknown emails get the same answer, so nobody can probe who is a member. */
  async requestPasswordReset(rawEmail: unknown, meta: RequestMeta): Promise<string> {
    const email = parseInput(emailInput, rawEmail);
    await this.limits.consume([
      ['resetPerIp', meta.ip],
      ['resetPerEmail', email],
    ]);
    const em = this.em();
    const user = await em.findOne(User, { email });
    if (!user) return authMessages.resetSent;
    const token = randomBytes(32).toString('base64url');
    em.create(PasswordResetToken, { user, tokenHash: sha256(token), expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS) });
    await em.flush();
    const link = `${this.publicUrl}/signin/password-reset?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`;
    await this.mailer.send(passwordResetMail(email, link));
    return authMessages.resetSent;
  }

  /** Sets a new password with a reset link's token: the email alone never changes a password. */
  async resetPassword(input: { email: unknown; token?: unknown; newPassword: unknown }, meta: RequestMeta): Promise<string> {
    const { email, token, newPassword } = parseInput(resetInput, input);
    await this.limits.consume([['newPasswordPerIp', meta.ip]]);
    const usable = (reset: IPasswordResetToken | null): reset is IPasswordResetToken =>
      !!reset && !reset.usedAt && reset.expiresAt.getTime() > Date.now() && reset.user.email === email;
    // The link is checked before any hash is spent on the new password, and again under a lock after (used only once).
    if (!usable(await this.em().findOne(PasswordResetToken, { tokenHash: sha256(token) }, { populate: ['user'] }))) {
      throw AuthErrors.resetLinkInvalid();
    }
    const passwordHash = await bcrypt.hash(newPassword, BCRYPT_COST);
    const ended = await this.em().transactional(async (em) => {
      const reset = await em.findOne(
        PasswordResetToken,
        { tokenHash: sha256(token) },
        { populate: ['user'], lockMode: LockMode.PESSIMISTIC_WRITE, lockTableAliases: ['p0'] },
      );
      if (!usable(reset)) throw AuthErrors.resetLinkInvalid();
      reset.usedAt = new Date();
      reset.user.passwordHash = passwordHash;
      // One reset spends every outstanding link of the account.
      await em.nativeUpdate(PasswordResetToken, { user: reset.user, usedAt: null, id: { $ne: reset.id } }, { usedAt: new Date() });
      // Whoever knew the old password is signed out everywhere: the member signs in afresh with the new one.
      return this.sessions.endWithin(em, reset.user.id);
    });
    this.sessions.forget(ended);
    return authMessages.passwordCreated;
  }

  close(): Promise<void> {
    return this.sessions.close();
  }
}
