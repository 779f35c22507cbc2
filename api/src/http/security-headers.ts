import { randomBytes } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.js';

/** Pages under this prefix (the embed player) may be framed by any site; everything else by none. */
const EMBEDDABLE_PREFIX = '/embed/';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

const scriptNonces = new WeakMap<ServerResponse, string>();

/**
 * The nonce of this answer's Content-Security-Policy: the one inline script a page may run (the shared page's loader)
 * carries it, so the policy needs no 'unsafe-inline' for scripts. Made on first use, one per answer.
 */
export function scriptNonceOf(response: ServerResponse): string {
  let nonce = scriptNonces.get(response);
  if (!nonce) {
    nonce = randomBytes(16).toString('base64');
    scriptNonces.set(response, nonce);
  }
  return nonce;
}

/** What every answer carries: nosniff (helmet's default), no referrer, and HSTS when the site is reached over HTTPS. */
function everyAnswer(config: Config) {
  return {
    referrerPolicy: { policy: 'no-referrer' },
    // No includeSubDomains: this server vouches for its own host only.
    strictTransportSecurity: config.HSTS ? { maxAge: YEAR_SECONDS, includeSubDomains: false } : false,
    // Framing is decided by the policy's frame-ancestors, which every browser that can run the app (ES2022) reads, and
    // which can let the embed player be framed; a static X-Frame-Options could not.
    xFrameOptions: false,
  } satisfies HelmetOptions;
}

/**
 * The headers of every answer that goes through Fastify (pages, the app's files, GraphQL, REST, tus uploads): the web
 * app runs under this policy. Styles may be inline (the shared page inlines its stylesheet, React renders style
 * attributes, the image cropper injects a style element); scripts come from this origin or carry the answer's nonce.
 */
export function securityHeaderOptions(config: Config): FastifyHelmetOptions {
  return {
    ...everyAnswer(config),
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: [(request) => (request.url?.startsWith(EMBEDDABLE_PREFIX) ? '*' : "'none'")],
        // blob: the profile image cropper previews the chosen file; data: the API reference's (/docs) icons.
        imgSrc: ["'self'", 'blob:', 'data:'],
        // data: the GraphQL explorer's (/graphql) fonts, inlined in its stylesheet.
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'", (_request, response) => `'nonce-${scriptNonceOf(response)}'`],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        ...(config.HSTS ? { upgradeInsecureRequests: [] } : {}),
      },
    },
  };
}

/**
 * The headers of a stored file, answered before Fastify (http/media-delivery.ts): worked out once by helmet from the
 * same definition. A file opened on its own may run nothing and be framed by nobody; other sites may show covers and
 * play mixes (what a share is for), and a file needs none of the page-only headers.
 */
export function mediaSecurityHeaders(config: Config): [name: string, value: string][] {
  const options: HelmetOptions = {
    ...everyAnswer(config),
    contentSecurityPolicy: {
      useDefaults: false,
      // What a file opened on its own needs: the browser's player plays the file itself, and the browser's inline
      // styles lay out the image or the player. No sandbox: it would make the player's own request cross-origin.
      directives: { defaultSrc: ["'none'"], mediaSrc: ["'self'"], styleSrc: ["'unsafe-inline'"], frameAncestors: ["'none'"] },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  };
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  helmet(options)(request, response, (error) => {
    if (error) throw error;
  });
  return Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]);
}
