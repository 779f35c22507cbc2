import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { PublicEarningsDocument, ViewerDocument } from '../../gql/graphql';
import { PlayerProvider } from '../../player/PlayerProvider';
import { PublicEarningsPage } from './PublicEarningsPage';

const viewer = { request: { query: ViewerDocument }, result: { data: { me: null } }, maxUsageCount: Number.POSITIVE_INFINITY };

const month = (period: string, creatorsCents: number, paidOutCents: number, waitingCents: number) => ({
  __typename: 'PublicEarningsMonth',
  period,
  creatorsCents,
  paidOutCents,
  waitingCents,
});

function renderPage(mock: MockLink.MockedResponse) {
  const router = createMemoryRouter([{ path: '/creator-earnings', element: <PublicEarningsPage /> }], {
    initialEntries: ['/creator-earnings'],
  });
  return render(
    <AuthProvider>
      <PlayerProvider>
        <MockedProvider mocks={[viewer, mock]}>
          <RouterProvider router={router} />
        </MockedProvider>
      </PlayerProvider>
    </AuthProvider>,
  );
}

describe('public creator-earnings page', () => {
  it('loads, then shows each month’s aggregates only; axe finds nothing', async () => {
    const { container } = renderPage({
      request: { query: PublicEarningsDocument },
      result: { data: { publicEarnings: [month('2026-11', 2100, 1400, 700), month('2026-10', 699, 0, 0)] } },
      delay: 30,
    });
    expect(screen.getByRole('status').textContent).toBe('Loading');
    const table = await screen.findByRole('region', { name: 'Creator money by month' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent)),
    ).toEqual([
      ['Month', 'To creators (70%)', 'Paid out', 'Waiting to be claimed'],
      ['November 2026', '$21.00', '$14.00', '$7.00'],
      ['October 2026', '$6.99', '$0.00', '$0.00'],
    ]);
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });

  it('says when no month is settled yet', async () => {
    renderPage({ request: { query: PublicEarningsDocument }, result: { data: { publicEarnings: [] } } });
    expect(await screen.findByText('No month has been settled yet.')).toBeTruthy();
  });

  it('says when the figures could not be loaded', async () => {
    renderPage({ request: { query: PublicEarningsDocument }, error: new Error('down') });
    expect(await screen.findByText('The figures could not be loaded. Please try again later.')).toBeTruthy();
  });
});
