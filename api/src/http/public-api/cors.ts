import type { IncomingMessage } from 'node:http';
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { originAllowed } from '../../shared/origins.js';

/** What a page elsewhere may read of an answer besides the CORS-safelisted headers. */
const EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'ETag',
  'Location',
  'Content-Range',
  'Accept-Ranges',
  'Content-Length',
];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** GraphQL, the REST paths and the stored files; tus (/api/uploads) answers CORS itself (see ResumableUploads). */
const crossOriginPath = (url: string) => /^\/(graphql|api|media)(\/|\?|$)/.test(url) && !/^\/api\/uploads(\/|\?|$)/.test(url);

/**
 * CORS for the public API: pages on the origins in CORS_ORIGINS (any by default) may call /graphql and /api and read
 * /media, without credentials (tokens travel in headers). Apollo's CSRF prevention stays meaningful: a request a page
 * can send without a preflight (a form post, text/plain, a GET without Apollo's headers) is still refused by Apollo,
 * and one that needs a preflight only goes when the origin is allowed here.
 */
export async function registerCors(app: FastifyInstance, config: Config): Promise<void> {
  const allowed = config.CORS_ORIGINS;
  const options: FastifyCorsOptions = {
    origin: (origin, callback) => callback(null, allowed === '*' ? '*' : originAllowed(allowed, origin) && origin ? origin : false),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    credentials: false,
  };
  await app.register(fastifyCors, {
    delegator: (request: FastifyRequest, callback) => callback(null, crossOriginPath(request.url) ? options : { origin: false }),
  });
}

/** The same headers on a /media answer, which is written before Fastify sees the request (http/media-delivery.ts). */
export function mediaCorsHeaders(config: Config) {
  const exposed = EXPOSED_HEADERS.join(', ');
  const anyOrigin = ['access-control-allow-origin', '*', 'access-control-expose-headers', exposed];
  return (request: IncomingMessage): string[] | null => {
    const origin = request.headers.origin;
    if (!originAllowed(config.CORS_ORIGINS, origin)) return null;
    if (config.CORS_ORIGINS === '*') return anyOrigin;
    return ['access-control-allow-origin', origin ?? '', 'access-control-expose-headers', exposed, 'vary', 'Origin'];
  };
}

/** The WebSocket at /graphql: clients that are no browser send no Origin; a browser's page is held to CORS_ORIGINS. */
export function socketOriginAllowed(config: Config) {
  return ({ origin, req }: { origin: string | undefined; req: IncomingMessage }): boolean => {
    if (!origin) return true;
    const sameHost = URL.canParse(origin) && new URL(origin).host === req.headers.host;
    return sameHost || origin === new URL(config.PUBLIC_URL).origin || originAllowed(config.CORS_ORIGINS, origin);
  };
}
