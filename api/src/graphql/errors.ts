import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { DomainError } from '../shared/errors.js';

/** Maps domain errors to `extensions.code`; hides the details of anything unexpected in production. */
export function formatGraphQLError(isProduction: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof DomainError) {
      return { message: original.message, path: formatted.path, extensions: { code: original.code, status: original.status } };
    }
    const code = formatted.extensions?.code;
    if (code === 'INTERNAL_SERVER_ERROR' && isProduction) {
      return { message: 'Internal server error', path: formatted.path, extensions: { code } };
    }
    return formatted;
  };
}
