import { readToken } from './storage';

/**
 * The sign-in every request to our API carries: the token in `x-auth-token`, the header the API documents first (its
 * OpenAPI security scheme, docs/accounts.md#calls) and the one every endpoint reads, tus uploads included. Nothing when signed out.
 */
export const AUTH_HEADER = 'x-auth-token';

export function authHeaders(): Record<string, string> {
  const token = readToken();
  return token ? { [AUTH_HEADER]: token } : {};
}
