import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AuthProvider } from './auth/auth';
import { appRoutes } from './router';

function Broken(): never {
  throw new Error('boom');
}

function renderAt(path: string) {
  const router = createMemoryRouter(appRoutes(), { initialEntries: [path] });
  render(
    <AuthProvider>
      <RouterProvider router={router} />
    </AuthProvider>,
  );
  return router;
}

describe('routes', () => {
  it('shows the not-found page with a link to the homepage for an unknown route', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Oooops... That page cannot be found' })).toBeTruthy();
    const home = screen.getByRole('link', { name: /homepage/i });
    expect(home.getAttribute('href')).toBe('/');
  });

  it('landing page names the product, offers Login, and clears the stored login', async () => {
    for (const key of ['token', 'user_name', 'location', 'user_type']) localStorage.setItem(key, 'x');
    localStorage.setItem('public_mix', 'kept');
    renderAt('/');
    const login = await screen.findByRole('link', { name: 'Login' });
    expect(login.getAttribute('href')).toBe('/signin');
    expect(screen.getAllByText('mixcrate').length).toBeGreaterThan(0);
    for (const key of ['token', 'user_name', 'location', 'user_type']) expect(localStorage.getItem(key)).toBeNull();
    expect(localStorage.getItem('public_mix')).toBe('kept');
  });

  it('sends a visitor without a token from a private route to /', async () => {
    const router = renderAt('/home');
    // The first visit to a GraphQL screen loads Apollo's chunk; give it time.
    await screen.findByRole('link', { name: 'Login' }, { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/');
  });

  it("shows the app's failure screen (docs/static-pages.md#failure-screen) when a screen of the real route table throws", async () => {
    vi.doMock('./pages/static/ChangeLogPage', () => ({ ChangeLogPage: Broken }));
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      renderAt('/change-log');
      // React Router's own fallback also says 'Unexpected Application Error!' (in an h2): the h1 and the way home are ours.
      expect(await screen.findByRole('heading', { level: 1, name: 'Unexpected Application Error!' }, { timeout: 5000 })).toBeTruthy();
      expect(screen.getByText('boom')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Go to the homepage' }).getAttribute('href')).toBe('/');
    } finally {
      quiet.mockRestore();
      vi.doUnmock('./pages/static/ChangeLogPage');
    }
  }, 10_000);
});
