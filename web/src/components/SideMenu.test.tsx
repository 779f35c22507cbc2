import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../auth/auth';
import { SignOutDocument } from '../gql/graphql';
import { PlayerProvider } from '../player/PlayerProvider';
import { SideMenu } from './SideMenu';

function renderMenu(signOut: MockLink.MockedResponse) {
  localStorage.setItem('token', 'token-1');
  localStorage.setItem('user_name', 'night_owl');
  const router = createMemoryRouter(
    [
      { path: '/home', element: <SideMenu open onClose={() => undefined} userName="night_owl" /> },
      { path: '/', element: <h1>Landing</h1> },
    ],
    { initialEntries: ['/home'] },
  );
  render(
    <AuthProvider>
      <PlayerProvider>
        <MockedProvider mocks={[signOut]}>
          <RouterProvider router={router} />
        </MockedProvider>
      </PlayerProvider>
    </AuthProvider>,
  );
  return userEvent.setup();
}

// The menu is a <dialog>, which jsdom leaves closed: its content counts as hidden there.
const logout = () => screen.getByRole('button', { name: 'Logout', hidden: true });

describe('side menu logout', () => {
  it('ends the session on the server, then forgets it here and goes to the landing page', async () => {
    let told = 0;
    const user = renderMenu({
      request: { query: SignOutDocument },
      result: () => {
        told += 1;
        // Told before anything is forgotten here: the request carries the token.
        expect(localStorage.getItem('token')).toBe('token-1');
        return { data: { signOut: 'Signed out' } };
      },
    });
    await user.click(logout());
    await screen.findByRole('heading', { name: 'Landing' });
    expect(told).toBe(1);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user_name')).toBeNull();
  });

  it('still signs out here when the server cannot be told', async () => {
    const user = renderMenu({ request: { query: SignOutDocument }, error: new Error('offline') });
    await user.click(logout());
    await screen.findByRole('heading', { name: 'Landing' });
    expect(localStorage.getItem('token')).toBeNull();
  });
});
