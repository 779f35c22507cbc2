import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { MixesByUserDocument, ProfileDocument, type ProfileFieldsFragment, ToggleFollowDocument, ViewerDocument } from '../../gql/graphql';
import { PlayerProvider } from '../../player/PlayerProvider';
import { ProfilePage } from './ProfilePage';
import { SharedProfilePage } from './SharedProfilePage';

const VIEWER_ID = 'u-ana';

/** A profile as the server sends it (the cache needs the type name to keep the member's follow state). */
type ServedProfile = ProfileFieldsFragment & { __typename: 'User' };

function member(overrides: Partial<ProfileFieldsFragment>): ServedProfile {
  return {
    __typename: 'User',
    id: 'u-ben',
    userName: 'ben',
    displayName: 'Ben',
    userType: 'DJ_CREATOR',
    userTypeLabel: 'DJ Creator',
    bio: 'Producer and label owner.',
    verifiedNames: [],
    imageUrl: null,
    createdAt: '2024-05-24T10:00:00.000Z',
    distanceKm: 504.9,
    isFollowing: false,
    followerCount: 3,
    followingCount: 1,
    ...overrides,
  };
}

// The header's Viewer query and the profile's `me` share the cache's `me` field, so both must tell the same viewer.
const viewer = (id: string) => ({
  __typename: 'Viewer',
  id,
  userName: 'ana',
  displayName: 'Ana',
  userType: 'DJ',
  imageUrl: null,
  location: null,
  currentMixPosition: 0,
  currentMix: null,
});

/** A tiny server: the profile reflects every follow toggle, as the API's does. */
function profileServer(profile: ServedProfile | null, viewerId: string | null = VIEWER_ID): MockLink.MockedResponse[] {
  let current = profile;
  const userName = profile?.userName ?? 'nobody';
  return [
    {
      request: { query: ViewerDocument },
      result: { data: { me: viewerId ? viewer(viewerId) : null } },
      maxUsageCount: Number.POSITIVE_INFINITY,
    },
    {
      request: { query: ProfileDocument, variables: { userName } },
      result: () => ({ data: { user: current, me: viewerId ? { __typename: 'Viewer', id: viewerId } : null } }),
      maxUsageCount: Number.POSITIVE_INFINITY,
    },
    {
      request: { query: MixesByUserDocument, variables: { userName, first: 50 } },
      result: { data: { mixesByUser: { __typename: 'MixConnection', totalCount: 0, nodes: [] } } },
      maxUsageCount: Number.POSITIVE_INFINITY,
    },
    {
      request: { query: ToggleFollowDocument, variables: { userId: profile?.id } },
      result: () => {
        if (!current) return { data: null };
        const following = !current.isFollowing;
        current = { ...current, isFollowing: following, followerCount: current.followerCount + (following ? 1 : -1) };
        return { data: { toggleFollow: following ? 'FOLLOWED' : 'UNFOLLOWED' } };
      },
      maxUsageCount: Number.POSITIVE_INFINITY,
    },
  ];
}

function renderAt(path: string, mocks: MockLink.MockedResponse[]) {
  localStorage.setItem('token', 'token-1');
  const router = createMemoryRouter(
    [
      { path: '/profile/:userName', element: <ProfilePage /> },
      { path: '/shared-profile/:userName', element: <SharedProfilePage /> },
      { path: '/home', element: <p>Home screen</p> },
    ],
    { initialEntries: [path] },
  );
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

describe('profile page', () => {
  it("shows another member's profile with distance, Follow and a disabled Message, and no edit", async () => {
    renderAt('/profile/ben', profileServer(member({})));
    expect((await screen.findByRole('heading', { level: 1, name: 'Ben' })).textContent).toBe('Ben');
    expect(screen.getByText('@ben')).toBeTruthy();
    expect(screen.getByText('DJ Creator')).toBeTruthy();
    expect(screen.getByText('Joined May 24th 24')).toBeTruthy();
    expect(screen.getByText('505 km away')).toBeTruthy();
    expect(screen.getByText('Producer and label owner.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Message' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Follow Ben' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /edit profile/i })).toBeNull();
    expect(await screen.findByText('No mixes yet.')).toBeTruthy();
  });

  it('turns Follow into Following on FOLLOWED and back on UNFOLLOWED, with the follower count', async () => {
    const user = renderAt('/profile/ben', profileServer(member({})));
    await user.click(await screen.findByRole('button', { name: 'Follow Ben' }));
    const following = await screen.findByRole('button', { name: 'Following Ben' });
    expect(following.textContent).toBe('Following');
    expect(screen.getByText('4')).toBeTruthy();

    await user.click(following);
    expect((await screen.findByRole('button', { name: 'Follow Ben' })).textContent).toBe('Follow');
    expect(screen.getByText('3')).toBeTruthy();
  });

  it('shows the owner an edit button instead of Follow and Message, and no distance', async () => {
    const user = renderAt(
      '/profile/ana',
      profileServer(member({ id: VIEWER_ID, userName: 'ana', displayName: 'Ana', isFollowing: null, distanceKm: null })),
    );
    const edit = await screen.findByRole('button', { name: 'Edit profile' });
    expect(screen.queryByRole('button', { name: /follow/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Message' })).toBeNull();
    expect(screen.queryByText(/km away/)).toBeNull();

    await user.click(edit);
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Edit profile' }));
    expect(screen.getByText('25 / 180')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit profile' }));
  });

  it("shows 'No display name' when the member has none", async () => {
    renderAt('/profile/ben', profileServer(member({ displayName: '' })));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('No display name');
  });

  it("says 'No member found' with a way home when nobody has the name", async () => {
    const user = renderAt('/profile/nobody', profileServer(null));
    expect(await screen.findByRole('heading', { name: 'No member found' })).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Back to home' }));
    expect(await screen.findByText('Home screen')).toBeTruthy();
  });

  it('offers a retry when the profile cannot be loaded', async () => {
    renderAt('/profile/ben', [
      { request: { query: ViewerDocument }, result: { data: { me: null } } },
      { request: { query: ProfileDocument, variables: { userName: 'ben' } }, error: new Error('Network down') },
    ]);
    expect(await screen.findByRole('heading', { name: 'This profile could not be loaded' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('shared profile page', () => {
  it('shows the profile without Follow, Message, edit or distance', async () => {
    renderAt('/shared-profile/ben', profileServer(member({ isFollowing: null }), null));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ben' })).toBeTruthy();
    expect(screen.getByText('@ben')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /follow/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Message' })).toBeNull();
    expect(screen.queryByRole('button', { name: /edit/i })).toBeNull();
    expect(screen.queryByText(/km away/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Login' })).toBeTruthy();
  });
});
