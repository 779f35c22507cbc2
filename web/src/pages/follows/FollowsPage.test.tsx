import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { FollowersDocument, FollowingDocument, type MemberRowFragment, ToggleFollowDocument, ViewerDocument } from '../../gql/graphql';
import { PlayerProvider } from '../../player/PlayerProvider';
import { FollowsPage } from './FollowsPage';
import { FOLLOW_PAGE_SIZE } from './FollowTabs';

interface Row {
  node: MemberRowFragment & { __typename: 'User' };
  distanceKm: number | null;
}

const row = (id: string, overrides: Partial<MemberRowFragment> = {}, distanceKm: number | null = 504.9): Row => ({
  distanceKm,
  node: {
    __typename: 'User',
    id,
    userName: id,
    displayName: `Member ${id}`,
    userType: 'LISTENER',
    imageUrl: null,
    isFollowing: true,
    ...overrides,
  },
});

const connection = (rows: Row[], totalCount = rows.length, endCursor: string | null = null) => ({
  __typename: 'FollowConnection',
  totalCount,
  edges: rows.map((item) => ({ __typename: 'FollowEdge', cursor: `cursor-${item.node.id}`, ...item })),
  pageInfo: { __typename: 'PageInfo', hasNextPage: endCursor !== null, endCursor },
});

const always = { maxUsageCount: Number.POSITIVE_INFINITY };

/** The viewer's two lists; every request is noted so a test can see what reloaded. */
function followServer(options: { following: Row[]; followers: Row[]; followingTotal?: number; nextCursor?: string; more?: Row[] }) {
  const calls: string[] = [];
  const state = { following: options.following, followers: options.followers };
  const mocks: MockLink.MockedResponse[] = [
    { request: { query: ViewerDocument }, result: { data: { me: null } }, ...always },
    {
      request: { query: FollowingDocument, variables: { first: FOLLOW_PAGE_SIZE } },
      result: () => {
        calls.push('following');
        return { data: { following: connection(state.following, options.followingTotal, options.nextCursor ?? null) } };
      },
      ...always,
    },
    {
      request: { query: FollowingDocument, variables: { first: FOLLOW_PAGE_SIZE, after: options.nextCursor } },
      result: () => {
        calls.push('following page 2');
        return { data: { following: connection(options.more ?? [], options.followingTotal) } };
      },
      ...always,
    },
    {
      request: { query: FollowersDocument, variables: { first: FOLLOW_PAGE_SIZE } },
      result: () => {
        calls.push('followers');
        return { data: { followers: connection(state.followers) } };
      },
      ...always,
    },
  ];
  for (const member of [...options.following, ...options.followers]) {
    mocks.push({
      request: { query: ToggleFollowDocument, variables: { userId: member.node.id } },
      result: () => {
        const isFollowing = state.following.some((item) => item.node.id === member.node.id);
        const updated = { ...member, node: { ...member.node, isFollowing: !isFollowing } };
        state.following = isFollowing ? state.following.filter((item) => item.node.id !== member.node.id) : [...state.following, updated];
        state.followers = state.followers.map((item) => (item.node.id === member.node.id ? updated : item));
        calls.push('toggle');
        return { data: { toggleFollow: isFollowing ? 'UNFOLLOWED' : 'FOLLOWED' } };
      },
      ...always,
    });
  }
  return { calls, mocks };
}

function renderFollows(mocks: MockLink.MockedResponse[]) {
  localStorage.setItem('token', 'token-1');
  const router = createMemoryRouter(
    [
      { path: '/follows', element: <FollowsPage /> },
      { path: '/profile/:userName', element: <p>A profile</p> },
    ],
    { initialEntries: ['/follows'] },
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
  return { router, user: userEvent.setup() };
}

const tab = (name: RegExp) => screen.getByRole('tab', { name });
const panel = () => screen.getByRole('tabpanel');

describe('follows page', () => {
  it('has Following (selected) and Followers tabs with the lists’ total counts', async () => {
    const { mocks } = followServer({ following: [row('ben')], followers: [row('cat'), row('dan')], followingTotal: 23, nextCursor: 'c1' });
    renderFollows(mocks);
    expect(screen.getByRole('tablist', { name: 'Follows' })).toBeTruthy();
    await within(tab(/^Following/)).findByText('23');
    expect(tab(/^Following/).getAttribute('aria-selected')).toBe('true');
    expect(tab(/^Followers/).getAttribute('aria-selected')).toBe('false');
    expect(await within(tab(/^Followers/)).findByText('2')).toBeTruthy();
    expect(panel().getAttribute('aria-labelledby')).toBe(tab(/^Following/).id);
  });

  it("shows each member's image or placeholder, name linking to the profile, type label and distance", async () => {
    const { mocks } = followServer({
      following: [
        row('ben', { userType: 'DJ_CREATOR', displayName: 'Ben' }),
        row('cat', { imageUrl: '/media/cat.jpg', displayName: '' }, null),
      ],
      followers: [],
    });
    const { user, router } = renderFollows(mocks);
    const ben = await screen.findByRole('link', { name: 'Ben' });
    const benRow = ben.closest('li') as HTMLElement;
    expect(within(benRow).getByText('DJ / Creator · 505 km')).toBeTruthy();
    expect(within(benRow).getByText('B').getAttribute('aria-hidden')).toBe('true');
    const catRow = screen.getByRole('link', { name: 'cat' }).closest('li') as HTMLElement;
    expect(within(catRow).getByText('Listener')).toBeTruthy();
    expect(catRow.querySelector('img')?.getAttribute('src')).toBe('/media/cat.jpg');

    await user.click(ben);
    expect(router.state.location.pathname).toBe('/profile/ben');
  });

  it('staggers the rows’ fade-in by 0.05 s per row', async () => {
    const { mocks } = followServer({ following: [row('a'), row('b'), row('c')], followers: [] });
    renderFollows(mocks);
    await screen.findByRole('link', { name: 'Member c' });
    const delays = within(panel())
      .getAllByRole('listitem')
      .map((item) => item.style.getPropertyValue('--row-delay'));
    expect(delays).toEqual(['0s', '0.05s', '0.1s']);
  });

  it('moves between tabs with the arrow keys, Home and End', async () => {
    const { mocks } = followServer({ following: [row('ben')], followers: [row('cat', { isFollowing: false })] });
    const { user } = renderFollows(mocks);
    await screen.findByRole('link', { name: 'Member ben' });
    tab(/^Following/).focus();

    await user.keyboard('{ArrowRight}');
    expect(tab(/^Followers/).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab(/^Followers/));
    expect(await within(panel()).findByRole('link', { name: 'Member cat' })).toBeTruthy();
    expect(panel().getAttribute('aria-labelledby')).toBe(tab(/^Followers/).id);

    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tab(/^Following/));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(tab(/^Followers/));
    await user.keyboard('{Home}');
    expect(tab(/^Following/).getAttribute('aria-selected')).toBe('true');
    expect(tab(/^Following/).tabIndex).toBe(0);
    expect(tab(/^Followers/).tabIndex).toBe(-1);
  });

  it('follows back from the Followers tab, and both lists reload from the first page', async () => {
    const { mocks, calls } = followServer({ following: [], followers: [row('cat', { isFollowing: false, displayName: 'Cat' })] });
    const { user } = renderFollows(mocks);
    expect(await screen.findByText('You are not following anyone yet.')).toBeTruthy();
    await user.click(tab(/^Followers/));
    calls.length = 0;

    await user.click(await screen.findByRole('button', { name: 'Follow Cat' }));
    expect((await screen.findByRole('button', { name: 'Following Cat' })).textContent).toBe('Following');
    await within(tab(/^Following/)).findByText('1');
    expect(calls).toEqual(expect.arrayContaining(['toggle', 'following', 'followers']));
  });

  it("loads the next page with 'Load more'", async () => {
    const { mocks } = followServer({
      following: [row('a'), row('b')],
      followers: [],
      followingTotal: 3,
      nextCursor: 'cursor-b',
      more: [row('c')],
    });
    const { user } = renderFollows(mocks);
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'Member c' })).toBeTruthy();
    expect(within(panel()).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows a spinner while loading and a retry when a list fails', async () => {
    renderFollows([
      { request: { query: ViewerDocument }, result: { data: { me: null } }, ...always },
      { request: { query: FollowingDocument, variables: { first: FOLLOW_PAGE_SIZE } }, error: new Error('Network down'), delay: 20 },
      { request: { query: FollowersDocument, variables: { first: FOLLOW_PAGE_SIZE } }, error: new Error('Network down') },
    ]);
    expect(within(panel()).getByRole('status').textContent).toBe('Loading following');
    expect((await within(panel()).findByRole('alert')).textContent).toContain('This list could not be loaded.');
    expect(within(panel()).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
