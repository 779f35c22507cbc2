import type { PubSub } from 'type-graphql';
import type { Viewer } from '../modules/auth/tokens.js';
import type { Services } from '../services.js';

export interface GraphQLContext {
  viewer: Viewer | null;
  ip: string;
  services: Services;
  /** The PubSub, for subscriptions that decide who may subscribe before they listen (absent in server rendering). */
  pubSub?: PubSub;
}

/** The token from an `Authorization: Bearer` header (HTTP) or a graphql-ws connection parameter. */
export function bearerToken(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match ? match[1] : null;
}

export async function viewerFromToken(services: Services, token: string | null): Promise<Viewer | null> {
  return token ? services.auth.authenticate(token) : null;
}
