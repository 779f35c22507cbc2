/**
 * Whether a page on `origin` may use the API from the browser (CORS_ORIGINS). Tokens travel in headers, never in
 * cookies, so a page elsewhere holds no ambient authority: letting it call the API gives it no more than a server-side
 * client already has, which is why any origin is the default.
 */
export function originAllowed(allowed: '*' | readonly string[], origin: string | undefined): boolean {
  if (!origin) return false;
  return allowed === '*' || allowed.includes(origin);
}
