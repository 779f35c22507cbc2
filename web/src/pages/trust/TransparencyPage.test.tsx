import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { TransparencyReportDocument, ViewerDocument } from '../../gql/graphql';
import { PlayerProvider } from '../../player/PlayerProvider';
import { TransparencyPage } from './TransparencyPage';

const viewer = { request: { query: ViewerDocument }, result: { data: { me: null } }, maxUsageCount: Number.POSITIVE_INFINITY };

const month = (value: string, counts: number[]) => {
  const [reportsReceived, notices, takedowns, counterNotices, restorations, suspensions] = counts;
  return { __typename: 'TransparencyMonth', month: value, reportsReceived, notices, takedowns, counterNotices, restorations, suspensions };
};

function renderPage(mock: MockLink.MockedResponse) {
  const router = createMemoryRouter([{ path: '/transparency', element: <TransparencyPage /> }], { initialEntries: ['/transparency'] });
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

const request = { query: TransparencyReportDocument, variables: { months: 12 } };

describe('transparency page', () => {
  it('loads, then shows each month’s counts, newest first, no names; axe finds nothing', async () => {
    const { container } = renderPage({
      request,
      result: { data: { transparencyReport: [month('2026-11', [12, 3, 4, 1, 2, 1]), month('2026-10', [5, 0, 1, 0, 0, 0])] } },
      delay: 30,
    });
    expect(screen.getByRole('status').textContent).toBe('Loading');
    const table = await screen.findByRole('region', { name: 'Counts by month' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent)),
    ).toEqual([
      ['Month', 'Reports received', 'Copyright notices', 'Takedowns', 'Counter-notices', 'Restorations', 'Suspensions'],
      ['November 2026', '12', '3', '4', '1', '2', '1'],
      ['October 2026', '5', '0', '1', '0', '0', '0'],
    ]);
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });

  it('says when there is nothing to count yet', async () => {
    renderPage({ request, result: { data: { transparencyReport: [] } } });
    expect(await screen.findByText('Nothing to count yet.')).toBeTruthy();
  });

  it('says when the figures could not be loaded, with Try again', async () => {
    renderPage({ request, error: new Error('down') });
    expect((await screen.findByRole('alert')).textContent).toContain('The figures could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
