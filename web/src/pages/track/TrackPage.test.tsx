import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { TrackMixesPageDocument, TrackPageDocument, ViewerDocument } from '../../gql/graphql';
import { PlayerProvider } from '../../player/PlayerProvider';
import { TrackPage } from './TrackPage';

const TRACK_ID = 't-1';

const edge = (n: number, startTime: number | null) => ({
  __typename: 'TrackMixEdge',
  cursor: `c${n}`,
  startTime,
  node: {
    __typename: 'Mix',
    id: `m-${n}`,
    title: `Mix ${n}`,
    coverUrl: `/media/mix/mix-images/${n}.jpg`,
    publishedAt: '2026-01-01T00:00:00.000Z',
    owner: { __typename: 'User', id: `u-${n}`, userName: `dj${n}`, displayName: `DJ ${n}` },
  },
});

const track = (edges: ReturnType<typeof edge>[], hasNextPage = false) => ({
  __typename: 'Track',
  id: TRACK_ID,
  title: 'Night Bloom (Extended Mix)',
  coverUrl: null,
  isManual: false,
  buy: true,
  newRelease: true,
  creators: [{ __typename: 'Creator', id: 'a-1', name: 'Kora Vale' }],
  label: { __typename: 'TrackLabel', id: 'l-1', name: 'Deep Root' },
  nameHolders: [],
  mixes: {
    __typename: 'TrackMixConnection',
    totalCount: edges.length + (hasNextPage ? 1 : 0),
    edges,
    pageInfo: { __typename: 'PageInfo', hasNextPage, endCursor: edges.at(-1)?.cursor ?? null },
  },
});

function server(served: ReturnType<typeof track> | null, more: ReturnType<typeof edge>[] = []): MockLink.MockedResponse[] {
  return [
    { request: { query: ViewerDocument }, result: { data: { me: null } }, maxUsageCount: Number.POSITIVE_INFINITY },
    { request: { query: TrackPageDocument, variables: { id: TRACK_ID } }, result: { data: { track: served } }, delay: 20 },
    {
      request: { query: TrackMixesPageDocument, variables: { id: TRACK_ID, after: served?.mixes.pageInfo.endCursor } },
      result: {
        data: {
          track: {
            __typename: 'Track',
            id: TRACK_ID,
            mixes: {
              __typename: 'TrackMixConnection',
              edges: more,
              pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: null },
            },
          },
        },
      },
    },
  ];
}

function renderTrack(mocks: MockLink.MockedResponse[], signedIn = false) {
  if (signedIn) localStorage.setItem('token', 'token-1');
  const router = createMemoryRouter([{ path: '/track/:id', element: <TrackPage /> }], { initialEntries: [`/track/${TRACK_ID}`] });
  render(
    <AuthProvider>
      <PlayerProvider>
        <MockedProvider mocks={mocks}>
          <RouterProvider router={router} />
        </MockedProvider>
      </PlayerProvider>
    </AuthProvider>,
  );
  return userEvent.setup();
}

afterEach(() => localStorage.clear());

describe('track page', () => {
  it('loads, then shows the track and the mixes that play it, newest first, with where it starts', async () => {
    renderTrack(server(track([edge(2, 3600.5), edge(1, null)])));
    expect(screen.getByText('Loading track')).toBeTruthy();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Night Bloom (Extended Mix)');
    expect(screen.getByText('Kora Vale')).toBeTruthy();
    expect(screen.getByText('Deep Root')).toBeTruthy();
    expect(screen.getByText('New release')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Played in 2 mixes');
    const links = screen.getAllByRole('link', { name: /^Mix \d$/ });
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Mix 2', '/shared-mix/m-2'],
      ['Mix 1', '/shared-mix/m-1'],
    ]);
    expect(screen.getByText('plays at 1:00:00')).toBeTruthy();
    expect(screen.getByText('time not given')).toBeTruthy();
  });

  it('links signed-in members to the private mix page, and loads more mixes from the keyboard', async () => {
    const user = renderTrack(server(track([edge(3, 10)], true), [edge(4, 20)]), true);
    expect((await screen.findByRole('link', { name: 'Mix 3' })).getAttribute('href')).toBe('/mix/m-3');
    const more = screen.getByRole('button', { name: 'Show more mixes' });
    more.focus();
    await user.keyboard('{Enter}');
    expect((await screen.findByRole('link', { name: 'Mix 4' })).getAttribute('href')).toBe('/mix/m-4');
    expect(screen.queryByRole('button', { name: 'Show more mixes' })).toBeNull();
  });

  it('says so when no published mix plays the track', async () => {
    renderTrack(server(track([])));
    expect(await screen.findByText('No published mix plays this track yet.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Played in 0 mixes');
  });

  it('shows a not-found state for an unknown track', async () => {
    renderTrack(server(null));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('No track found');
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
  });
});
