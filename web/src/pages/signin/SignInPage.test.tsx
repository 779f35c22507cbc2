import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { SignInDocument } from '../../gql/graphql';
import { NEXT_DELAY_MS, SignInPage } from './SignInPage';

const STRONG = 'Mixcrate1!';

function renderSignIn(mocks: MockLink.MockedResponse[] = []) {
  const router = createMemoryRouter(
    [
      { path: '/signin', element: <SignInPage /> },
      { path: '/home', element: <p>Home screen</p> },
    ],
    { initialEntries: ['/signin'] },
  );
  render(
    <AuthProvider>
      <MockedProvider mocks={mocks}>
        <RouterProvider router={router} />
      </MockedProvider>
    </AuthProvider>,
  );
  return { router, user: userEvent.setup() };
}

const field = (name: RegExp) => screen.getByLabelText(name);
const email = () => field(/^email$/i);
const password = () => field(/^password$/i);
const confirmation = () => field(/^confirm password$/i);
const submit = () => screen.getByRole('button', { name: 'Login' });

/** The validation message tied to a field through aria-describedby. */
function messageOf(input: HTMLElement): string | null {
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

const signInMock = (input: { email: string; password: string }): MockLink.MockedResponse => ({
  request: { query: SignInDocument, variables: { input } },
  result: {
    data: {
      signIn: {
        __typename: 'AuthPayload',
        token: 'token-123',
        viewer: { __typename: 'Viewer', id: 'u1', userName: 'dj_ana', displayName: 'Ana' },
      },
    },
  },
});

describe('sign-in page', () => {
  it("is headed 'Let's login' with three labelled fields", () => {
    renderSignIn();
    expect(screen.getByRole('heading', { level: 1, name: "Let's login" })).toBeTruthy();
    expect(email().getAttribute('type')).toBe('email');
    expect(password().getAttribute('type')).toBe('password');
    expect(confirmation().getAttribute('type')).toBe('password');
  });

  it('links to the password reset and to sign-up', () => {
    renderSignIn();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/signin/enter-reset-password');
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
  });

  it('asks for every field when submitted empty', async () => {
    const { user } = renderSignIn();
    await user.click(submit());
    expect(messageOf(email())).toBe('Please enter a valid email');
    expect(messageOf(password())).toBe('Please enter a password');
    expect(messageOf(confirmation())).toBe('Please confirm your password');
    expect(password().getAttribute('aria-invalid')).toBe('true');
  });

  it('explains the password rule for a weak password', async () => {
    const { user } = renderSignIn();
    await user.type(email(), 'ana@example.com');
    await user.type(password(), 'password1');
    await user.type(confirmation(), 'password1');
    await user.click(submit());
    expect(messageOf(password())).toBe('Passwords must be min. 8 chars, one capital letter, one number, and one special character');
    expect(messageOf(email())).toBeNull();
  });

  it('says when the confirmation does not match', async () => {
    const { user } = renderSignIn();
    await user.type(email(), 'ana@example.com');
    await user.type(password(), STRONG);
    await user.type(confirmation(), 'Mixcrate2!');
    await user.click(submit());
    expect(messageOf(confirmation())).toBe('Passwords do not match');
    expect(messageOf(password())).toBeNull();
  });

  it('rejects an email that does not look like one', async () => {
    const { user } = renderSignIn();
    await user.type(email(), 'ana@example');
    await user.type(password(), STRONG);
    await user.type(confirmation(), STRONG);
    await user.click(submit());
    expect(messageOf(email())).toBe('Please enter a valid email');
  });

  it('shows a message once a field is left, before any submit', async () => {
    const { user } = renderSignIn();
    await user.type(email(), 'nope');
    await user.tab();
    expect(messageOf(email())).toBe('Please enter a valid email');
    expect(messageOf(password())).toBeNull();
  });

  it('signs in with trimmed input, stores the token and goes home 750 ms after Next', async () => {
    const { user, router } = renderSignIn([signInMock({ email: 'ana@example.com', password: STRONG })]);
    await user.type(email(), '  Ana@Example.com ');
    await user.type(password(), STRONG);
    await user.type(confirmation(), STRONG);
    await user.click(submit());

    const next = await screen.findByRole('button', { name: 'Next' });
    expect(localStorage.getItem('token')).toBe('token-123');
    expect(localStorage.getItem('user_name')).toBe('dj_ana');
    expect(document.activeElement).toBe(next);

    // From the click on, timeouts run only when the test moves the clock: the delay is checked to the millisecond,
    // however busy the machine. (A plain click: user-event's own pauses are timeouts too.)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fireEvent.click(next);
      act(() => vi.advanceTimersByTime(NEXT_DELAY_MS - 1));
      expect(router.state.location.pathname).toBe('/signin');
      act(() => vi.advanceTimersByTime(1));
      expect(router.state.location.pathname).toBe('/home');
      expect(screen.getByText('Home screen')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('alerts when the server rejects the details', async () => {
    const { user } = renderSignIn([
      {
        request: { query: SignInDocument, variables: { input: { email: 'ana@example.com', password: STRONG } } },
        result: { errors: [new GraphQLError('Wrong email or password', { extensions: { code: 'UNAUTHENTICATED' } })] },
      },
    ]);
    await user.type(email(), 'ana@example.com');
    await user.type(password(), STRONG);
    await user.type(confirmation(), STRONG);
    await user.click(submit());

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Please check details and try again.');
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
  });
});
