import { createHash } from 'node:crypto';
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import type { GraphQLContext } from './context.js';

/**
 * The operations a shared cache (a CDN in front of /graphql) may keep, with how many seconds: what visitors who are
 * not signed in ask most, whose answers are the same for all of them (docs/public-api.md#caching). A card's badges
 * ("new", "expiring in") and counts move slowly, so a few seconds' staleness is invisible.
 */
export const CACHEABLE_OPERATIONS: ReadonlyMap<string, number> = new Map([
  ['Feed', 15],
  ['MixPage', 15],
  ['PlayerMix', 60],
  ['MixesByUser', 15],
]);

/** What answers to signed-in requests (and everything else) say: never stored by anyone. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * Which GraphQL answers may be cached: a GET of a persisted query (the operation named by its hash, so the URL is the
 * cache key), of a cacheable operation, sent without credentials and answered without errors gets `Cache-Control:
 * public` for that operation's seconds; every other GET gets `private, no-store`. A signed-in request's answer holds
 * the viewer's own marks, so it is never public, and `Vary` names the credential headers for caches that honour it.
 */
export function httpCachePlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ request, response, contextValue, operationName, errors }) {
          const http = request.http;
          if (http?.method !== 'GET' || !response.http) return;
          const seconds = CACHEABLE_OPERATIONS.get(operationName ?? '');
          const anonymous = contextValue.viewer === null && !http.headers.get('authorization') && !http.headers.get('x-auth-token');
          const persisted = request.extensions?.persistedQuery !== undefined;
          const answered = !errors?.length && response.body.kind === 'single' && !response.body.singleResult.errors?.length;
          const cacheable = seconds !== undefined && anonymous && persisted && answered;
          response.http.headers.set('vary', 'authorization, x-auth-token');
          response.http.headers.set(
            'cache-control',
            cacheable ? `public, max-age=${seconds}, stale-while-revalidate=${seconds * 4}` : PRIVATE_CACHE_CONTROL,
          );
        },
      };
    },
  };
}

/** A weak validator of an answer's bytes: equal answers, equal tags, whichever process made them. */
export const etagOf = (body: string | Buffer) => `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/**
 * ETag and 304 for the public answers of /graphql: a client or CDN that holds the answer already (If-None-Match with
 * its tag) gets a 304 without the body. Only answers marked public (see httpCachePlugin) carry a tag.
 */
export function registerGraphQLEtags(app: FastifyInstance, path: string): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || !request.url.startsWith(`${path}?`)) return payload;
    const cacheControl = reply.getHeader('cache-control');
    if (typeof cacheControl !== 'string' || !cacheControl.startsWith('public')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const etag = etagOf(payload);
    reply.header('etag', etag);
    const wanted = request.headers['if-none-match'];
    if (typeof wanted === 'string' && wanted.split(',').some((tag) => tag.trim() === etag || tag.trim() === etag.slice(2))) {
      reply.code(304);
      reply.removeHeader('content-length');
      return '';
    }
    return payload;
  });
}
