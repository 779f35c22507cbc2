import type { FastifyRequest } from 'fastify';

export type Body = Record<string, unknown>;

/** The JSON body as an object; anything else (a string, an array, nothing) reads as empty so services answer 400. */
export function bodyOf(request: FastifyRequest): Body {
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}

/**
 * A REST page size (`?limit=`) for the schema that judges it: a string of digits becomes its number, anything else is
 * left as it came for the schema to refuse with its message (a page size of "1e2" or " 5" is no page size).
 */
export const restLimit = (value: unknown): unknown => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value);
