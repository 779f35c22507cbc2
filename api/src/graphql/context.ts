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

/** Where clients put the token: as over HTTP, as Apollo's docs show, and in a `headers` object (Hasura's habit). */
const TOKEN_KEYS = ['authorization', 'Authorization', 'token', 'authToken'] as const;

const absent = (value: unknown) => value === undefined || value === null || value === '';

/** A token with or without its `Bearer ` prefix; null when the value is no token in either shape. */
function tokenIn(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (/^bearer(\s|$)/i.test(value.trim())) return bearerToken(value);
  return /^\S+$/.test(value) ? value : null;
}

/**
 * The sign-in a graphql-ws client sent in `connectionParams`: a token, bare or as `Bearer <token>`, under
 * `authorization`, `Authorization`, `token` or `authToken`, or as the `Authorization` header in `headers` (any case).
 * None of them (or empty) is anonymous. The same token under several keys is one sign-in; a value that is no token, or
 * two different tokens, is malformed: which one the client meant cannot be known.
 */
export function socketCredentials(params: Readonly<Record<string, unknown>> | undefined): SocketCredentials {
  const headers = params?.headers;
  if (!absent(headers) && (typeof headers !== 'object' || Array.isArray(headers))) return { kind: 'malformed' };
  // Header names are case-insensitive, as over HTTP.
  const headerValues = Object.entries(headers ?? {})
    .filter(([name]) => name.toLowerCase() === 'authorization')
    .map(([, value]) => value);
  const given = [...TOKEN_KEYS.map((key) => params?.[key]), ...headerValues].filter((value) => !absent(value));
  if (given.length === 0) return { kind: 'anonymous' };
  const tokens = new Set(given.map(tokenIn));
  const [token] = tokens;
  return tokens.size === 1 && token ? { kind: 'token', token } : { kind: 'malformed' };
}
