import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { GraphQLError } from 'graphql';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { ConnectPayoutAccountDocument, CreatorEarningsDocument, ViewerDocument } from '../../gql/graphql';
import { PlayerProvider } from '../../player/PlayerProvider';
import { EarningsPage } from './EarningsPage';

const track = (trackId: string | null, title: string | null, amountCents: number, listenedSeconds: number) => ({
  __typename: 'CreatorTrackLine',
  trackId,
  title,
  amountCents,
  listenedSeconds,
  subscribers: 1,
  paidCents: 0,
});

const month = (period: string, amountCents: number, tracks: ReturnType<typeof track>[]) => ({
  __typename: 'CreatorMonth',
  period,
  creatorName: 'Tomi Sato',
  amountCents,
  listenedSeconds: tracks.reduce((sum, line) => sum + line.listenedSeconds, 0),
  subscribers: 1,
  paidCents: 0,
  tracks,
});

const earnings = (overrides: Record<string, unknown> = {}) => ({
  __typename: 'CreatorEarnings',
  totalCents: 1679,
  paidCents: 0,
  balanceCents: 1679,
  minimumCents: 1000,
  months: [
    month('2026-11', 279, [track('t-1', 'Harbour Lights', 140, 60), track('t-3', 'Quay Song', 139, 60)]),
    month('2026-10', 1400, [track(null, null, 1400, 600)]),
  ],
  payouts: [],
  payoutAccount: null,
  ...overrides,
});

const viewer = { request: { query: ViewerDocument }, result: { data: { me: null } }, maxUsageCount: Number.POSITIVE_INFINITY };

function renderEarnings(mocks: MockLink.MockedResponse[]) {
  localStorage.setItem('token', 'token-1');
  const router = createMemoryRouter(
    [
      { path: '/earnings', element: <EarningsPage /> },
      { path: '/track/:id', element: <p>A track page</p> },
    ],
    { initialEntries: ['/earnings'] },
  );
  const view = render(
    <AuthProvider>
      <PlayerProvider>
        <MockedProvider mocks={[viewer, ...mocks]}>
          <RouterProvider router={router} />
        </MockedProvider>
      </PlayerProvider>
    </AuthProvider>,
  );
  return { ...view, router, user: userEvent.setup() };
}

const served = (data: ReturnType<typeof earnings>, extra: Partial<MockLink.MockedResponse> = {}): MockLink.MockedResponse => ({
  request: { query: CreatorEarningsDocument },
  result: { data: { creatorEarnings: data } },
  ...extra,
});

afterEach(() => vi.unstubAllGlobals());

describe('earnings page', () => {
  it('shows a spinner while the earnings load', async () => {
    renderEarnings([served(earnings(), { delay: 50 })]);
    expect(screen.getByRole('status').textContent).toBe('Loading your earnings');
    await screen.findByRole('heading', { name: 'Balance' });
  });

  it('tells a member who is not a verified creator how to become one (403)', async () => {
    renderEarnings([
      {
        request: { query: CreatorEarningsDocument },
        result: {
          errors: [
            new GraphQLError('Only verified creators have earnings: claim your creator name first', {
              extensions: { code: 'FORBIDDEN', status: 403 },
            }),
          ],
        },
      },
    ]);
    expect(await screen.findByText(/Earnings are for verified creators/)).toBeTruthy();
  });

  it('says so when the earnings could not be loaded', async () => {
    renderEarnings([{ request: { query: CreatorEarningsDocument }, error: new Error('down') }]);
    expect(await screen.findByText('Your earnings could not be loaded. Please try again later.')).toBeTruthy();
  });

  it('has an empty state before anything is settled', async () => {
    renderEarnings([served(earnings({ months: [], totalCents: 0, balanceCents: 0 }))]);
    expect(await screen.findByText(/No earnings yet/)).toBeTruthy();
    expect(screen.getByText('No track has earned yet.')).toBeTruthy();
  });

  it('shows each month per track, adding up to the month, with links to the tracks; axe finds nothing', async () => {
    const { container, router, user } = renderEarnings([served(earnings())]);
    const november = await screen.findByRole('region', { name: 'Tomi Sato, November 2026: $2.79 by track' });
    const rows = within(november).getAllByRole('row').slice(1);
    expect(rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent))).toEqual([
      ['Harbour Lights', '0:01:00', '1', '$1.40', '$0.00'],
      ['Quay Song', '0:01:00', '1', '$1.39', '$0.00'],
    ]);
    const october = screen.getByRole('region', { name: 'Tomi Sato, October 2026: $14.00 by track' });
    expect(within(october).getByText('Settled before per-track lines')).toBeTruthy();
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
    await user.click(within(november).getByRole('link', { name: 'Harbour Lights' }));
    expect(router.state.location.pathname).toBe('/track/t-1');
  });

  it('connects a test-mode payout account and shows its status', async () => {
    const connected = earnings({ payoutAccount: { __typename: 'PayoutAccount', provider: 'test', status: 'enabled' } });
    renderEarnings([
      served(earnings()),
      {
        request: { query: ConnectPayoutAccountDocument },
        result: { data: { connectPayoutAccount: { __typename: 'PaymentRedirect', redirect: '/earnings?connected=1' } } },
      },
      served(connected),
    ]);
    const user = userEvent.setup();
    expect((await screen.findByTestId('payout-account')).textContent).toBe('No payout account yet.');
    await user.click(screen.getByRole('button', { name: 'Connect payout account' }));
    expect(await screen.findByText('Test mode. Connected: payouts reach this account.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Connect payout account|Finish onboarding/ })).toBeNull();
  });

  it('shows the server’s words when the payout account cannot be connected', async () => {
    renderEarnings([
      served(earnings()),
      {
        request: { query: ConnectPayoutAccountDocument },
        result: { errors: [new GraphQLError('Payments are not configured on this server')] },
      },
    ]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Connect payout account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Payments are not configured on this server');
  });

  it('exports the CSV with the member’s token, and says when it fails', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response('period\r\n', { status: 200 }))
      .mockResolvedValueOnce(new Response('', { status: 403 }));
    vi.stubGlobal('fetch', fetchMock);
    // jsdom has no object URLs: the page only hands the one it made to the link it clicks.
    Object.assign(URL, { createObjectURL: () => 'blob:csv', revokeObjectURL: () => undefined });
    renderEarnings([served(earnings())]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(fetchMock).toHaveBeenCalledWith('/api/creator/earnings.csv', {
      headers: expect.objectContaining({ 'x-auth-token': 'token-1' }),
    });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The export could not be made. Please try again.');
  });
});
