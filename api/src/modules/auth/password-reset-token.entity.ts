import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';

/** A single-use reset link. Only the token's SHA-256 is stored, so a database leak yields no usable links. */
export const PasswordResetToken = defineEntity({
  name: 'PasswordResetToken',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade').index('password_reset_token_user_idx'),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IPasswordResetToken = InferEntity<typeof PasswordResetToken>;
