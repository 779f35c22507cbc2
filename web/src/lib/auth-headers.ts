import { readToken } from './storage';

/**
 * The sign-in every request to our API carries: the token in `x-auth-token`, the header the API documents first (its
 * OpenAPI security scheme, SPEC §7) and the one every endpoint reads, tus uploads included. Nothing when signed out.
 */
export function authHeaders(): Record<string, string> {
  const token = readToken();
  return token ? { 'x-auth-token': token } : {};
}
