import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errors, jwtVerify, SignJWT } from 'jose';
import { isUuid } from '../../shared/cursor.js';
import { UnauthenticatedError } from '../../shared/errors.js';
import type { Viewer } from '../../shared/viewer.js';

const ISSUER = 'mixcrate';

/** Signs and verifies session tokens (HS256). */
export class TokenService {
  private constructor(
    private readonly key: Uint8Array,
    private readonly ttl: string,
  ) {}

  /** Uses JWT_SECRET when given; otherwise a secret generated once and kept under DATA_DIR, so sessions survive restarts. */
  static async create(secret: string | undefined, dataDir: string, ttl: string): Promise<TokenService> {
    if (secret) return new TokenService(new TextEncoder().encode(secret), ttl);
    const file = join(dataDir, 'secrets', 'jwt-secret');
    if (!existsSync(file)) {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' }).catch((error) => {
        if (error.code !== 'EEXIST') throw error;
      });
    }
    return new TokenService(new TextEncoder().encode((await readFile(file, 'utf8')).trim()), ttl);
  }

  sign(userId: string): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(this.ttl)
      .sign(this.key);
  }

  async verify(token: string): Promise<Viewer> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      // A subject that is no member id (only someone holding the secret could sign one) is as invalid as a forged token.
      if (!isUuid(payload.sub)) throw new UnauthenticatedError('Invalid token');
      return { id: payload.sub };
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new UnauthenticatedError('Your session has expired, please sign in again');
      throw new UnauthenticatedError('Invalid token');
    }
  }
}
