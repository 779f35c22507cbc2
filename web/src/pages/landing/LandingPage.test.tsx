import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { LandingPage } from './LandingPage';

function renderLanding() {
  const router = createMemoryRouter([{ path: '/', element: <LandingPage /> }]);
  render(
    <AuthProvider>
      <RouterProvider router={router} />
    </AuthProvider>,
  );
  return userEvent.setup();
}

describe('landing page', () => {
  it("has the hero, 'What's different?', the demo match and the closed-beta offer", () => {
    renderLanding();
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
    const sections = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(sections).toEqual(["What's different?", 'A match, 7\u00a0km apart', 'The beta is closed']);
    expect(screen.getAllByText('free-mix').length).toBeGreaterThan(0);
  });

  it('offers Login and creating an account', () => {
    renderLanding();
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/signin');
    const signUps = screen.getAllByRole('link', { name: 'Create an account' });
    expect(signUps.map((link) => link.getAttribute('href'))).toEqual(['/signup', '/signup']);
  });

  it('shows two members 7 km apart and reveals their matched track on demand', async () => {
    const user = renderLanding();
    const demo = screen.getByRole('region', { name: 'A match, 7\u00a0km apart' });
    expect(demo.textContent).toContain('Maya K.');
    expect(demo.textContent).toContain('Theo R.');
    expect(demo.textContent).toContain('7 km apart');

    const toggle = screen.getByRole('button', { name: 'Show the matched track' });
    const track = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(track?.hidden).toBe(true);

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(track?.hidden).toBe(false);
    expect(track?.textContent).toContain('Late Light');
    expect(screen.getByRole('button', { name: 'Hide the matched track' })).toBe(toggle);
  });
});
