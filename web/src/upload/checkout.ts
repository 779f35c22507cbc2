/** The browser leaves for a checkout or billing page (Stripe's, or the local test-mode one) at the address the server gave. */
export function goToCheckout(redirect: string): void {
  window.location.assign(redirect);
}
