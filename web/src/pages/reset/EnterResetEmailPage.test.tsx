import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { RequestPasswordResetDocument } from '../../gql/graphql';
import { EnterResetEmailPage, MESSAGE_CLEAR_MS } from './EnterResetEmailPage';

const SENT = 'If an account exists for that email, we have sent a link to reset the password. It works once, for one hour.';

function renderPage(mocks: MockLink.MockedResponse[] = []) {
  const router = createMemoryRouter([{ path: '/signin/enter-reset-password', element: <EnterResetEmailPage /> }], {
    initialEntries: ['/signin/enter-reset-password'],
  });
  render(
    <AuthProvider>
      <MockedProvider mocks={mocks}>
        <RouterProvider router={router} />
      </MockedProvider>
    </AuthProvider>,
  );
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}

const email = () => screen.getByLabelText(/^email$/i);
const send = () => screen.getByRole('button', { name: 'Send email' });
const status = () => screen.getByRole('status');

const resetMock = (address: string, result: MockLink.MockedResponse['result']): MockLink.MockedResponse => ({
  request: { query: RequestPasswordResetDocument, variables: { email: address } },
  result,
});

describe('send reset email page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("enables 'Send email' only while the field is non-empty", async () => {
    const user = renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeTruthy();
    expect(send()).toHaveProperty('disabled', true);
    await user.type(email(), '   ');
    expect(send()).toHaveProperty('disabled', true);
    await user.type(email(), 'a');
    expect(send()).toHaveProperty('disabled', false);
    await user.clear(email());
    expect(send()).toHaveProperty('disabled', true);
  });

  it("shows the server's message, then clears it after 2.5 s and keeps the email", async () => {
    const user = renderPage([resetMock('ana@example.com', { data: { requestPasswordReset: SENT } })]);
    await user.type(email(), 'Ana@Example.com');
    await user.click(send());

    await screen.findByText(SENT);
    expect(status().textContent).toBe(SENT);
    // Fake time also follows the real clock here, so the checks keep a margin around 2.5 s.
    act(() => vi.advanceTimersByTime(MESSAGE_CLEAR_MS - 300));
    expect(status().textContent).toBe(SENT);
    act(() => vi.advanceTimersByTime(300));
    expect(status().textContent).toBe('');
    expect(email()).toHaveProperty('value', 'Ana@Example.com');
  });

  it("shows the server's refusal as an alert, which also clears after 2.5 s", async () => {
    const tooMany = 'Too many attempts. Please try again in 60 minutes.';
    const user = renderPage([
      resetMock('ana@example.com', { errors: [new GraphQLError(tooMany, { extensions: { code: 'TOO_MANY_REQUESTS', status: 429 } })] }),
    ]);
    await user.type(email(), 'ana@example.com');
    await user.click(send());

    expect((await screen.findByRole('alert')).textContent).toBe(tooMany);
    act(() => vi.advanceTimersByTime(MESSAGE_CLEAR_MS));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks for a valid email before sending anything', async () => {
    const user = renderPage();
    await user.type(email(), 'ana@example');
    await user.click(send());
    expect(screen.getByText('Please enter a valid email')).toBeTruthy();
    expect(email().getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
