import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { DomainError } from '../shared/errors.js';

/** Apollo answers some refusals of the request itself (a persisted-query hash that does not match) with a 4xx and no code. */
function isRefusedRequest(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('extensions' in error)) return false;
  const { extensions } = error;
  if (typeof extensions !== 'object' || extensions === null || 'code' in extensions || !('http' in extensions)) return false;
  const { http } = extensions;
  const status = typeof http === 'object' && http !== null && 'status' in http ? http.status : undefined;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** Maps domain errors to `extensions.code`; hides the details of anything unexpected in production. */
export function formatGraphQLError(isProduction: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof DomainError) {
      return { message: original.message, path: formatted.path, extensions: { code: original.code, status: original.status } };
    }
    const code = formatted.extensions?.code;
    if (code === 'INTERNAL_SERVER_ERROR' && isRefusedRequest(error)) {
      return { ...formatted, extensions: { ...formatted.extensions, code: 'BAD_REQUEST' } };
    }
    if (code === 'INTERNAL_SERVER_ERROR' && isProduction) {
      return { message: 'Internal server error', path: formatted.path, extensions: { code } };
    }
    return formatted;
  };
}

/**
 * graphql-ws sends errors as graphql-js made them; this gives each the code (INTERNAL_SERVER_ERROR where it has none)
 * and the masking Apollo gives it over HTTP.
 */
export function formatWebSocketErrors(isProduction: boolean) {
  const format = formatGraphQLError(isProduction);
  return (errors: readonly GraphQLError[]): GraphQLFormattedError[] =>
    errors.map((error) => {
      const { http: _transportOnly, ...extensions } = error.extensions;
      const formatted = error.toJSON();
      return format({ ...formatted, extensions: { ...extensions, code: extensions.code ?? 'INTERNAL_SERVER_ERROR' } }, error);
    });
}
