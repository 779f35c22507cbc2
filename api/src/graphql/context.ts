import type { PubSub } from 'type-graphql';
import type { Services } from '../services.js';
import type { Viewer } from '../shared/viewer.js';
import type { Listen } from './live-value.js';

export interface GraphQLContext {
  viewer: Viewer | null;
  ip: string;
  services: Services;
  /** The PubSub, for subscriptions that decide who may subscribe before they listen (absent in server rendering). */
  pubSub?: PubSub;
  /** Hears a topic's payloads directly, for live values (absent in server rendering). */
  listen?: Listen;
}

/** The token from an `Authorization: Bearer` header (HTTP) or a graphql-ws connection parameter. */
export function bearerToken(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match ? match[1] : null;
}

/** What a graphql-ws connection's parameters say about its sign-in. */
export type SocketCredentials = { kind: 'anonymous' } | { kind: 'token'; token: string } | { kind: 'malformed' };

/**
 * The sign-in a graphql-ws client sent in `connectionParams`: `authorization: "Bearer <token>"` (as over HTTP) or
 * `token`. Neither (or empty) is anonymous; anything else that is not a token in one of those shapes is malformed.
 */
export function socketCredentials(params: Readonly<Record<string, unknown>> | undefined): SocketCredentials {
  const { authorization, token } = params ?? {};
  const absent = (value: unknown) => value === undefined || value === null || value === '';
  if (absent(authorization) && absent(token)) return { kind: 'anonymous' };
  if (!absent(authorization)) {
    const bearer = bearerToken(authorization);
    return bearer && absent(token) ? { kind: 'token', token: bearer } : { kind: 'malformed' };
  }
  return typeof token === 'string' && /^\S+$/.test(token) ? { kind: 'token', token } : { kind: 'malformed' };
}
