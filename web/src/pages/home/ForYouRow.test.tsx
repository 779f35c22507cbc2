import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ForYouDocument, type ForYouQuery } from '../../gql/graphql';
import { PlayerProvider } from '../../player/PlayerProvider';
import { FOR_YOU_SIZE, ForYouRow } from './ForYouRow';

type Item = ForYouQuery['forYou'][number];

/** A row item as the server answers it (with the type names the cache reads). */
const item = (id: string, reason: Item['reason'], reasonText: string, related: { id: string; title: string } | null = null) => ({
  __typename: 'Recommendation',
  reason,
  reasonText,
  relatedMix: related ? { __typename: 'RelatedMix', ...related } : null,
  mix: {
    __typename: 'Mix',
    id,
    title: `Mix ${id}`,
    genre: 'TECHNO',
    coverUrl: `/media/${id}.jpg`,
    audioUrl: `/media/${id}.mp3`,
    createdAt: '2026-11-20T10:00:00.000Z',
    publishedAt: '2026-11-20T10:00:00.000Z',
    isNewUpload: true,
    distanceKm: 12,
    isOwner: false,
    durationSeconds: 3600,
    savedByMe: false,
    owner: { __typename: 'User', id: `u-${id}`, userName: `dj_${id}`, displayName: `DJ ${id}`, imageUrl: null },
  },
});

function renderRow(answer: { data: { forYou: ReturnType<typeof item>[] } } | { error: Error }) {
  const request = { query: ForYouDocument, variables: { first: FOR_YOU_SIZE } };
  const mock: MockLink.MockedResponse = 'error' in answer ? { request, error: answer.error } : { request, result: answer, delay: 20 };
  const router = createMemoryRouter([{ path: '/', element: <ForYouRow /> }]);
  render(
    <PlayerProvider>
      <MockedProvider mocks={[mock]}>
        <RouterProvider router={router} />
      </MockedProvider>
    </PlayerProvider>,
  );
}

describe('For you row', () => {
  it('shows loading, then each card with its reason, in the order the server answered', async () => {
    renderRow({
      data: {
        forYou: [
          item('a', 'NEW_FROM_FOLLOWED', 'New from DJ a'),
          item('b', 'SAVED', 'Because you saved Night bus', { id: 'seed', title: 'Night bus' }),
          item('c', 'POPULAR_NEAR_YOU', 'Popular near you'),
        ],
      },
    });
    expect(screen.getByRole('status').textContent).toBe('Loading recommendations');
    const list = await screen.findByRole('list', { name: 'For you' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards.map((card) => card.querySelector('[data-reason]')?.textContent)).toEqual([
      'New from DJ a',
      'Because you saved Night bus',
      'Popular near you',
    ]);
    expect(within(cards[1]).getByRole('link', { name: 'Mix b' }).getAttribute('href')).toBe('/mix/b');
    expect(within(cards[1]).getByText('DJ b · 12 km')).toBeTruthy();
  });

  it('is reached with the keyboard: Tab goes play, title, play, title…', async () => {
    renderRow({ data: { forYou: [item('a', 'POPULAR', 'Popular this week'), item('b', 'POPULAR', 'Popular this week')] } });
    await screen.findByRole('list', { name: 'For you' });
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Play Mix a');
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Mix a');
    await user.tab();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Play Mix b');
  });

  it('says so when there is nothing to recommend', async () => {
    renderRow({ data: { forYou: [] } });
    expect(await screen.findByText(/Nothing to recommend yet/)).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('offers Try again when the row could not be loaded', async () => {
    renderRow({ error: new Error('offline') });
    expect((await screen.findByRole('alert')).textContent).toContain('Recommendations could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
