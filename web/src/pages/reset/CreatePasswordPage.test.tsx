import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { ResetPasswordDocument } from '../../gql/graphql';
import { CreatePasswordPage, PASSWORD_CREATED, REDIRECT_AFTER_CREATED_MS } from './CreatePasswordPage';

const STRONG = 'Newpass1!';
const LINK = '/signin/password-reset?email=ana%40example.com&token=reset-token-1';

function renderPage(mocks: MockLink.MockedResponse[] = [], entry = LINK) {
  const router = createMemoryRouter(
    [
      { path: '/signin/password-reset', element: <CreatePasswordPage /> },
      { path: '/signin', element: <p>Login screen</p> },
      { path: '/signin/enter-reset-password', element: <p>Send email screen</p> },
    ],
    { initialEntries: [entry] },
  );
  render(
    <AuthProvider>
      <MockedProvider mocks={mocks}>
        <RouterProvider router={router} />
      </MockedProvider>
    </AuthProvider>,
  );
  return { router, user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }) };
}

const password = () => screen.getByLabelText('New password');
const confirmation = () => screen.getByLabelText('Confirm password');
const create = () => screen.getByRole('button', { name: 'Create password' });

const resetMock = (result: MockLink.MockedResponse['result']): MockLink.MockedResponse => ({
  request: {
    query: ResetPasswordDocument,
    variables: { input: { email: 'ana@example.com', token: 'reset-token-1', newPassword: STRONG } },
  },
  result,
});

describe('create password page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the email from the link and has two password fields, each with a show/hide toggle', async () => {
    const { user } = renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Create new password' })).toBeTruthy();
    expect(screen.getByText('ana@example.com')).toBeTruthy();
    expect(password().getAttribute('type')).toBe('password');
    expect(confirmation().getAttribute('type')).toBe('password');

    await user.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(password().getAttribute('type')).toBe('text');
    expect(confirmation().getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Hide new password' }));
    expect(password().getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show confirm password' }));
    expect(confirmation().getAttribute('type')).toBe('text');
  });

  it('validates with the documented rules before calling the server', async () => {
    const { user } = renderPage();
    await user.type(password(), 'weakpass');
    await user.type(confirmation(), 'weakpass');
    await user.click(create());
    expect(screen.getByText('Passwords must be min. 8 chars, one capital letter, one number, and one special character')).toBeTruthy();

    await user.clear(password());
    await user.type(password(), STRONG);
    await user.click(create());
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
  });

  it("says 'Password has been created' and goes to login after 3 s", async () => {
    const { user, router } = renderPage([resetMock({ data: { resetPassword: PASSWORD_CREATED } })]);
    await user.type(password(), STRONG);
    await user.type(confirmation(), STRONG);
    await user.click(create());

    expect((await screen.findByText(PASSWORD_CREATED)).getAttribute('role')).toBe('status');
    // Fake time also follows the real clock here, so the checks keep a margin around 3 s.
    act(() => vi.advanceTimersByTime(REDIRECT_AFTER_CREATED_MS - 300));
    expect(router.state.location.pathname).toBe('/signin/password-reset');
    act(() => vi.advanceTimersByTime(300));
    await screen.findByText('Login screen');
  });

  it("shows the server's message for a spent link and keeps what was typed", async () => {
    const spent = 'This reset link is invalid or has expired. Please ask for a new one.';
    const { user } = renderPage([resetMock({ errors: [new GraphQLError(spent, { extensions: { code: 'NOT_FOUND', status: 404 } })] })]);
    await user.type(password(), STRONG);
    await user.type(confirmation(), STRONG);
    await user.click(create());

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(spent);
    expect(screen.getByRole('link', { name: 'Send a new reset email' }).getAttribute('href')).toBe('/signin/enter-reset-password');
    expect(password()).toHaveProperty('value', STRONG);
    expect(confirmation()).toHaveProperty('value', STRONG);
  });

  it('explains an incomplete link instead of showing a form that cannot work', () => {
    renderPage([], '/signin/password-reset?email=ana%40example.com');
    expect(screen.getByRole('alert').textContent).toContain('this link is incomplete');
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Send a new reset email' })).toBeTruthy();
  });
});
