import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type MixCardFieldsFragment, MixStatsDocument } from '../gql/graphql';
import { PlayerProvider } from '../player/PlayerProvider';
import { MixCard } from './MixCard';

const MIX: MixCardFieldsFragment = {
  id: 'm1',
  title: 'Warehouse Sunday',
  genre: 'DEEP_HOUSE',
  coverUrl: '/media/mix/mix-images/cover.jpg',
  audioUrl: '/media/mix/mix-audio/mix.mp3',
  createdAt: '2024-05-24T10:00:00.000Z',
  publishedAt: '2024-05-24T10:00:00.000Z',
  isNewUpload: false,
  distanceKm: 7.2,
  isOwner: false,
  durationSeconds: 3600,
  savedByMe: false,
  owner: { id: 'u1', userName: 'ana', displayName: 'Ana', imageUrl: null },
};

function renderCard(mix: MixCardFieldsFragment, shared = false) {
  const stats = {
    request: { query: MixStatsDocument, variables: { mixId: mix.id } },
    result: { data: { mixStats: { listeners: 0, listens: 0, hours: 0, saves: 0 } } },
  };
  const router = createMemoryRouter([{ path: '/', element: <MixCard mix={mix} shared={shared} /> }]);
  render(
    <PlayerProvider>
      <MockedProvider mocks={[stats]}>
        <RouterProvider router={router} />
      </MockedProvider>
    </PlayerProvider>,
  );
}

describe('mix card distance', () => {
  it("shows the distance the server answers, also on the viewer's own mix (the server decides to hide it)", () => {
    renderCard({ ...MIX, isOwner: true });
    expect(screen.getByTitle('Distance from you').textContent).toBe('7 km');
  });

  it('shows none where the server answers none', () => {
    renderCard({ ...MIX, isOwner: true, distanceKm: null });
    expect(screen.queryByTitle('Distance from you')).toBeNull();
  });

  it('shows none on shared pages', () => {
    renderCard(MIX, true);
    expect(screen.queryByTitle('Distance from you')).toBeNull();
  });
});
