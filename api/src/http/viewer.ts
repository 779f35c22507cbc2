import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../graphql/context.js';
import { bodyOf } from '../rest/request.js';
import type { Services } from '../services.js';
import type { Viewer } from '../shared/viewer.js';

const resolved = new WeakMap<FastifyRequest, Promise<Viewer | null>>();

/**
 * Who sent the request: the one way both skins learn it, once per request. The token comes as `x-auth-token` (the
 * documented header), `Authorization: Bearer` (GraphQL habits), or in the body as `token` / `user_token` (the documented
 * sign-up steps). No token means nobody; a bad or expired one is a 401, never quietly nobody.
 */
export function viewerOf(services: Services, request: FastifyRequest): Promise<Viewer | null> {
  let viewer = resolved.get(request);
  if (!viewer) {
    const body = bodyOf(request);
    const token = [request.headers['x-auth-token'], bearerToken(request.headers.authorization), body.token, body.user_token].find(
      (value): value is string => typeof value === 'string' && value.length > 0,
    );
    viewer = token ? services.auth.authenticate(token) : Promise.resolve(null);
    resolved.set(request, viewer);
  }
  return viewer;
}
