import type { FastifyRequest } from 'fastify';
import type { Viewer } from '../modules/auth/tokens.js';
import type { Services } from '../services.js';
import { UnauthenticatedError } from '../shared/errors.js';

export type Body = Record<string, unknown>;

/** The JSON body as an object; anything else (a string, an array, nothing) reads as empty so services answer 400. */
export function bodyOf(request: FastifyRequest): Body {
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}

/** The SPEC sends the token as `x-auth-token`; some sign-up steps also put it in the body as `token` or `user_token`. */
export async function requireViewer(services: Services, request: FastifyRequest): Promise<Viewer> {
  const header = request.headers['x-auth-token'];
  const body = bodyOf(request);
  const token = [header, body.token, body.user_token].find((value): value is string => typeof value === 'string' && value.length > 0);
  if (!token) throw new UnauthenticatedError('No token, authorization denied');
  return services.auth.authenticate(token);
}

export async function optionalViewer(services: Services, request: FastifyRequest): Promise<Viewer | null> {
  const header = request.headers['x-auth-token'];
  return typeof header === 'string' && header ? services.auth.authenticate(header) : null;
}
