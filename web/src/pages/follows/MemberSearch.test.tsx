import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { SearchMembersDocument } from '../../gql/graphql';
import { MemberSearch, SEARCH_SETTLE_MS } from './MemberSearch';

const members = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ __typename: 'MemberSummary', userName: `ben_${index}`, displayName: `Ben ${index}` }));

function searchMock(text: string, found: ReturnType<typeof members>, calls?: string[]): MockLink.MockedResponse {
  return {
    request: { query: SearchMembersDocument, variables: { text } },
    result: () => {
      calls?.push(text);
      return { data: { searchMembers: found } };
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

function renderSearch(mocks: MockLink.MockedResponse[]) {
  const router = createMemoryRouter(
    [
      {
        path: '/follows',
        element: (
          <>
            <MemberSearch />
            <p>Elsewhere on the page</p>
          </>
        ),
      },
      { path: '/profile/:userName', element: <p>A profile</p> },
    ],
    { initialEntries: ['/follows'] },
  );
  render(
    <MockedProvider mocks={mocks}>
      <RouterProvider router={router} />
    </MockedProvider>,
  );
  return { router, user: userEvent.setup() };
}

const input = () => screen.getByPlaceholderText('Display name');
const options = () => screen.queryAllByRole('option');

describe('member search', () => {
  it("is a labelled combobox with the placeholder 'Display name'", () => {
    renderSearch([]);
    expect(screen.getByRole('combobox', { name: 'Search members by display name' })).toBe(input());
    expect(input().getAttribute('aria-expanded')).toBe('false');
  });

  it('shows at most 8 members however many the server sends', async () => {
    const { user } = renderSearch([searchMock('ben', members(10))]);
    await user.type(input(), 'ben');
    await screen.findByRole('option', { name: /Ben 0/ });
    expect(options()).toHaveLength(8);
    expect(input().getAttribute('aria-expanded')).toBe('true');
  });

  it("says 'No results' once the search has come back empty", async () => {
    const { user } = renderSearch([searchMock('zz', [])]);
    await user.type(input(), 'zz');
    expect((await screen.findByText('No results')).getAttribute('role')).toBe('status');
    expect(options()).toHaveLength(0);
  });

  it('asks the server only for non-empty text, once typing settles', async () => {
    // The clock is moved past the settling time, rather than waited out: a busy machine may take longer to get there.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const calls: string[] = [];
      const { user } = renderSearch([searchMock('ben', members(1), calls)]);
      await user.type(input(), '   ');
      act(() => vi.advanceTimersByTime(SEARCH_SETTLE_MS));
      expect(calls).toEqual([]);
      expect(screen.queryByRole('listbox')).toBeNull();

      await user.clear(input());
      await user.type(input(), 'ben');
      await screen.findByRole('option', { name: /Ben 0/ });
      expect(calls).toEqual(['ben']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes and clears the input on a click outside', async () => {
    const { user } = renderSearch([searchMock('ben', members(3))]);
    await user.type(input(), 'ben');
    await screen.findByRole('option', { name: /Ben 0/ });
    await user.click(screen.getByText('Elsewhere on the page'));
    expect(input()).toHaveProperty('value', '');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('opens the profile of a clicked result', async () => {
    const { user, router } = renderSearch([searchMock('ben', members(3))]);
    await user.type(input(), 'ben');
    await user.click(await screen.findByRole('option', { name: /Ben 2/ }));
    expect(router.state.location.pathname).toBe('/profile/ben_2');
  });

  it('moves through the results with the arrow keys and opens one with Enter', async () => {
    const { user, router } = renderSearch([searchMock('ben', members(3))]);
    await user.type(input(), 'ben');
    await screen.findByRole('option', { name: /Ben 0/ });

    await user.keyboard('{ArrowDown}{ArrowDown}');
    const second = screen.getByRole('option', { name: /Ben 1/ });
    expect(second.getAttribute('aria-selected')).toBe('true');
    expect(input().getAttribute('aria-activedescendant')).toBe(second.id);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('option', { name: /Ben 2/ }).getAttribute('aria-selected')).toBe('true');

    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/profile/ben_2');
  });

  it('closes with Escape', async () => {
    const { user } = renderSearch([searchMock('ben', members(3))]);
    await user.type(input(), 'ben');
    await screen.findByRole('option', { name: /Ben 0/ });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input()).toHaveProperty('value', '');
  });
});
