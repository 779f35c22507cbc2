import type { FastifyRequest } from 'fastify';

export type Body = Record<string, unknown>;

/** The JSON body as an object; anything else (a string, an array, nothing) reads as empty so services answer 400. */
export function bodyOf(request: FastifyRequest): Body {
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}
