import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';

/** Said when the request never got an answer from the API (offline, server down). */
export const UNREACHABLE = 'Could not reach mixcrate. Check your connection and try again.';

/** What a failed call shows (docs/rules.md#messages): the first message the API gave for a failed operation, else the fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  if (CombinedGraphQLErrors.is(error)) return error.errors[0]?.message || fallback;
  return fallback;
}

/** The HTTP status the API attaches to a domain error (`extensions.status`), or the response's own status. */
export function serverStatus(error: unknown): number | undefined {
  if (CombinedGraphQLErrors.is(error)) {
    const extensions = error.errors[0]?.extensions;
    if (extensions?.code === 'UNAUTHENTICATED') return 401;
    return typeof extensions?.status === 'number' ? extensions.status : undefined;
  }
  if (ServerError.is(error)) return error.statusCode;
  return undefined;
}
