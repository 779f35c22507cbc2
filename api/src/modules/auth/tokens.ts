import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { isUuid } from '../../shared/cursor.js';
import type { Viewer } from '../../shared/viewer.js';
import { AuthErrors } from './auth.errors.js';

const ISSUER = 'mixcrate';
/** Tokens whose signature this process has checked, remembered (oldest forgotten first); a few MB at most. */
const VERIFIED_KEPT = 10_000;

interface Verified {
  viewer: Viewer;
  /** When the token runs out (its `exp`), in ms. */
  expiresAt: number;
}

/**
 * Signs and verifies session tokens (HS256): the member (`sub`) and the session (`sid`). A token only carries them;
 * whether the session still holds is the session table's to say (sessions.service.ts).
 */
export class TokenService {
  /**
   * Tokens verified already, by their text: a signature either holds for these exact bytes or not, so it is checked
   * once. jose checks HS256 through WebCrypto, two jobs on the thread pool and their promises per request: most of
   * a signed-in request's CPU beside its SQL in the feed bench's profile. Expiry is still checked on every use.
   */
  private readonly verified = new Map<string, Verified>();

  private constructor(private readonly key: Uint8Array) {}

  /** Uses JWT_SECRET when given; otherwise a secret generated once and kept under DATA_DIR, so sessions survive restarts. */
  static async create(secret: string | undefined, dataDir: string): Promise<TokenService> {
    if (secret) return new TokenService(new TextEncoder().encode(secret));
    const file = join(dataDir, 'secrets', 'jwt-secret');
    if (!existsSync(file)) {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' }).catch((error) => {
        if (error.code !== 'EEXIST') throw error;
      });
    }
    return new TokenService(new TextEncoder().encode((await readFile(file, 'utf8')).trim()));
  }

  sign(viewer: Viewer, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: viewer.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(viewer.id)
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(this.key);
  }

  /** The member and session a token names, when it is ours and unexpired; whether the session holds is not asked here. */
  async verify(token: string): Promise<Viewer> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt <= Date.now()) {
        this.verified.delete(token);
        throw AuthErrors.sessionExpired();
      }
      return known.viewer;
    }
    return this.verifySignature(token);
  }

  private async verifySignature(token: string): Promise<Viewer> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw AuthErrors.sessionExpired();
      throw AuthErrors.invalidToken();
    }
    // A subject that is no member id (only someone holding the secret could sign one) is as invalid as a forged token.
    if (!isUuid(payload.sub)) throw AuthErrors.invalidToken();
    // Tokens from before sessions existed name none: nothing can end them, so they no longer count.
    if (!isUuid(payload.sid)) throw AuthErrors.sessionEnded();
    const viewer = { id: payload.sub, sessionId: payload.sid };
    // Our tokens always carry `exp` (sign sets it); one without is checked afresh each time rather than kept forever.
    if (typeof payload.exp === 'number') {
      if (this.verified.size >= VERIFIED_KEPT) this.verified.delete(this.verified.keys().next().value ?? '');
      this.verified.set(token, { viewer, expiresAt: payload.exp * 1000 });
    }
    return viewer;
  }
}
