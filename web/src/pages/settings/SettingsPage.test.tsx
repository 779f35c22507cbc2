import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type FormattedExecutionResult, GraphQLError } from 'graphql';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { RequireAuth } from '../../auth/RequireAuth';
import {
  BillingDocument,
  type BillingQuery,
  ChangePasswordDocument,
  CheckPasswordDocument,
  EarningsPeriodsDocument,
  LedgerAccessDocument,
  SignOutEverywhereDocument,
  ViewerDocument,
} from '../../gql/graphql';
import { PlayerProvider } from '../../player/PlayerProvider';
import { SignInPage } from '../signin/SignInPage';
import { RESULT_CLEAR_MS, SettingsPage } from './SettingsPage';

const mixOf = (id: string, title: string) => ({ id, title, coverUrl: `/media/${id}.jpg` });
const BILLING: BillingQuery['billing'] = {
  testMode: true,
  subscribed: true,
  canOpenPortal: true,
  singlePurchaseCents: 400,
  subscriptionCents: 999,
  graceDays: 30,
  openBetaCode: 'free-mix',
  subscription: {
    status: 'active',
    active: true,
    currentPeriodEnd: '2026-12-24T12:00:00.000Z',
    cancelAtPeriodEnd: true,
    endedAt: null,
  },
  mixes: [
    {
      hosting: 'SINGLE',
      expiresAt: '2027-11-24T12:00:00.000Z',
      expiringIn: 365,
      isExpired: false,
      canRenew: true,
      mix: mixOf('m1', 'Paid Mix'),
    },
    {
      hosting: 'SUBSCRIPTION',
      expiresAt: null,
      expiringIn: null,
      isExpired: false,
      canRenew: false,
      mix: mixOf('m2', 'Sub Mix'),
    },
  ],
};

const OLD = 'Oldpass1!';
const NEW = 'Newpass1!';

function renderSettings(mocks: MockLink.MockedResponse[]) {
  localStorage.setItem('token', 'token-1');
  // As in the app: settings is private, and the sign-in page loads as its own chunk.
  const router = createMemoryRouter(
    [
      { element: <RequireAuth />, children: [{ path: '/settings', element: <SettingsPage /> }] },
      { path: '/signin', lazy: async () => ({ Component: SignInPage }) },
      { path: '/', element: <h1>Landing</h1> },
    ],
    { initialEntries: ['/settings'] },
  );
  render(
    <AuthProvider>
      <PlayerProvider>
        <MockedProvider mocks={[{ request: { query: ViewerDocument }, result: { data: { me: null } } }, ...mocks]}>
          <RouterProvider router={router} />
        </MockedProvider>
      </PlayerProvider>
    </AuthProvider>,
  );
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}

const oldPassword = () => screen.getByLabelText('Old password');
const newPassword = () => screen.getByLabelText('New password');
const confirmation = () => screen.getByLabelText('Confirm new password');
const change = () => screen.getByRole('button', { name: 'Change' });

/** A mock result that notes its name when the page calls it, so a test can tell the order of the calls. */
function recorded(calls: string[], name: string, result: FormattedExecutionResult) {
  return () => {
    calls.push(name);
    return result;
  };
}

const checkMock = (calls: string[], result: FormattedExecutionResult): MockLink.MockedResponse => ({
  request: { query: CheckPasswordDocument, variables: { password: OLD } },
  result: recorded(calls, 'check', result),
});

const changeMock = (calls: string[], result: FormattedExecutionResult): MockLink.MockedResponse => ({
  request: { query: ChangePasswordDocument, variables: { input: { newPassword: NEW } } },
  result: recorded(calls, 'change', result),
});

async function fill(user: ReturnType<typeof userEvent.setup>, values: [string, string, string]) {
  await user.type(oldPassword(), values[0]);
  await user.type(newPassword(), values[1]);
  await user.type(confirmation(), values[2]);
}

describe('settings page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("enables 'Change' only when all three fields are filled", async () => {
    const user = renderSettings([]);
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(change()).toHaveProperty('disabled', true);
    await user.type(oldPassword(), OLD);
    expect(change()).toHaveProperty('disabled', true);
    await user.type(newPassword(), NEW);
    expect(change()).toHaveProperty('disabled', true);
    await user.type(confirmation(), NEW);
    expect(change()).toHaveProperty('disabled', false);
    await user.clear(oldPassword());
    expect(change()).toHaveProperty('disabled', true);
  });

  it('checks the old password first, then changes it; the result shows for 2.5 s, then the form clears', async () => {
    const calls: string[] = [];
    const user = renderSettings([
      checkMock(calls, { data: { checkPassword: 'Password is correct' } }),
      changeMock(calls, { data: { changePassword: 'Password updated' } }),
    ]);
    await fill(user, [OLD, NEW, NEW]);
    await user.click(change());

    await screen.findByText('Password updated');
    expect(calls).toEqual(['check', 'change']);
    expect(newPassword()).toHaveProperty('value', NEW);
    // Fake time also follows the real clock here, so the checks keep a margin around 2.5 s.
    act(() => vi.advanceTimersByTime(RESULT_CLEAR_MS - 300));
    expect(screen.getByText('Password updated')).toBeTruthy();
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByText('Password updated')).toBeNull();
    for (const field of [oldPassword(), newPassword(), confirmation()]) expect(field).toHaveProperty('value', '');
    expect(change()).toHaveProperty('disabled', true);
  });

  it("shows the server's message when the old password is wrong, and changes nothing", async () => {
    const calls: string[] = [];
    const user = renderSettings([
      checkMock(calls, { errors: [new GraphQLError('Password is incorrect', { extensions: { code: 'BAD_USER_INPUT', status: 400 } })] }),
    ]);
    await fill(user, [OLD, NEW, NEW]);
    await user.click(change());

    expect((await screen.findByRole('alert')).textContent).toBe('Password is incorrect');
    expect(calls).toEqual(['check']);
    expect(oldPassword()).toHaveProperty('value', OLD);
  });

  it("says 'Password check failed' when the check fails without a message", async () => {
    const user = renderSettings([{ request: { query: CheckPasswordDocument, variables: { password: OLD } }, error: new Error('offline') }]);
    await fill(user, [OLD, NEW, NEW]);
    await user.click(change());
    expect((await screen.findByRole('alert')).textContent).toBe('Password check failed');
  });

  it('validates the new password with the documented rules after the check passes', async () => {
    const calls: string[] = [];
    const user = renderSettings([
      {
        request: { query: CheckPasswordDocument, variables: { password: OLD } },
        result: recorded(calls, 'check', { data: { checkPassword: 'ok' } }),
      },
    ]);
    await fill(user, [OLD, 'newpass', 'newpass']);
    await user.click(change());

    await screen.findByText('Passwords must be min. 8 chars, one capital letter, one number, and one special character');
    expect(calls).toEqual(['check']);
    expect(newPassword().getAttribute('aria-invalid')).toBe('true');
  });

  it('refuses a new password of 7 characters that meets every other rule (the length alone)', async () => {
    const calls: string[] = [];
    const user = renderSettings([
      {
        request: { query: CheckPasswordDocument, variables: { password: OLD } },
        result: recorded(calls, 'check', { data: { checkPassword: 'ok' } }),
      },
    ]);
    await fill(user, [OLD, 'Ab1!xyz', 'Ab1!xyz']);
    await user.click(change());

    await screen.findByText('Passwords must be min. 8 chars, one capital letter, one number, and one special character');
    expect(calls).toEqual(['check']);
    expect(newPassword().getAttribute('aria-invalid')).toBe('true');
  }, 20_000);

  it("says 'Something went wrong' when the update fails with status 400, 404 or 500", async () => {
    const calls: string[] = [];
    const user = renderSettings([
      checkMock(calls, { data: { checkPassword: 'ok' } }),
      changeMock(calls, { errors: [new GraphQLError('boom', { extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 } })] }),
    ]);
    await fill(user, [OLD, NEW, NEW]);
    await user.click(change());
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong');
    expect(confirmation()).toHaveProperty('value', NEW);
  });

  it('shows the plan, the billing portal, each mix with its hosting end and Renew, and the earnings periods to an operator', async () => {
    renderSettings([
      { request: { query: BillingDocument }, result: { data: { billing: BILLING } } },
      { request: { query: LedgerAccessDocument }, result: { data: { canReadLedger: true } } },
      { request: { query: EarningsPeriodsDocument }, result: { data: { earningsPeriods: [] } } },
    ]);
    const billing = await screen.findByRole('region', { name: 'Billing' });
    await screen.findByText('Subscription: canceled, ends Dec 24th 26');
    expect(billing.textContent).toContain('Single purchase · Hosting ends Nov 24th 27');
    expect(billing.textContent).toContain('Subscription · Hosted while your subscription is active');
    expect(screen.getByRole('button', { name: 'Manage billing' })).toBeTruthy();
    // Only the single purchase can be renewed; a subscriber is not offered another subscription.
    expect(screen.getAllByRole('button', { name: /^Renew / }).map((button) => button.getAttribute('aria-label'))).toEqual([
      'Renew Paid Mix for 12 months ($4.00)',
    ]);
    expect(screen.queryByRole('button', { name: /^Subscribe/ })).toBeNull();
    await screen.findByText('No earnings yet: none of the months has a paid subscription.');
  });

  it('shows no creator earnings to a member who is not an operator', async () => {
    renderSettings([
      { request: { query: BillingDocument }, result: { data: { billing: BILLING } } },
      { request: { query: LedgerAccessDocument }, result: { data: { canReadLedger: false } } },
    ]);
    await screen.findByRole('region', { name: 'Billing' });
    await screen.findByText('Subscription: canceled, ends Dec 24th 26');
    expect(screen.queryByRole('heading', { name: 'Creator earnings' })).toBeNull();
  });
});

describe('signing out everywhere', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const everywhere = (calls: string[], result: FormattedExecutionResult): MockLink.MockedResponse => ({
    request: { query: SignOutEverywhereDocument },
    result: recorded(calls, 'everywhere', result),
  });

  it('asks first; Cancel changes nothing', async () => {
    const calls: string[] = [];
    const user = renderSettings([everywhere(calls, { data: { signOutEverywhere: 3 } })]);
    const sessions = screen.getByRole('region', { name: 'Sessions' });
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const confirm = screen.getByRole('button', { name: 'Yes, sign out everywhere' });
    expect(document.activeElement).toBe(confirm);
    expect(confirm.getAttribute('aria-describedby')).toBe('sessions-confirm');
    expect(sessions.textContent).toContain('Sign out on every device, this one too?');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Sign out everywhere' })).toBeTruthy();
    expect(calls).toEqual([]);
    expect(localStorage.getItem('token')).toBe('token-1');
  });

  it('ends every session on the server, forgets this one, and the sign-in page says how many ended', async () => {
    const calls: string[] = [];
    const user = renderSettings([everywhere(calls, { data: { signOutEverywhere: 3 } })]);
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    await user.click(screen.getByRole('button', { name: 'Yes, sign out everywhere' }));

    const notice = await screen.findByText('You are signed out on every device: 3 sessions ended, this one included.');
    expect(notice.getAttribute('role')).toBe('status');
    expect(screen.getByRole('heading', { name: "Let's login" })).toBeTruthy();
    expect(calls).toEqual(['everywhere']);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('stays signed in and says so when the server could not do it', async () => {
    const calls: string[] = [];
    const user = renderSettings([
      everywhere(calls, { errors: [new GraphQLError('boom', { extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 } })] }),
    ]);
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    await user.click(screen.getByRole('button', { name: 'Yes, sign out everywhere' }));
    expect((await screen.findByRole('alert')).textContent).toBe('boom');
    expect(localStorage.getItem('token')).toBe('token-1');
  });
});
