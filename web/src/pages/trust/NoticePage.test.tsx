import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { GraphQLError } from 'graphql';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { CopyrightNoticeDocument, CounterNoticeDocument, ViewerDocument } from '../../gql/graphql';
import { PlayerProvider } from '../../player/PlayerProvider';
import { NoticePage } from './NoticePages';

const filed = { __typename: 'NoticeEvent', action: 'notice.filed', by: 'FILER', reason: null, at: '2026-11-20T10:00:00.000Z' } as const;

const notice = (overrides: Record<string, unknown> = {}) => ({
  __typename: 'CopyrightNotice',
  id: 'n-1',
  mixId: 'mix-1',
  mixTitle: 'Warehouse Tapes',
  trackId: 't-1',
  trackTitle: 'Night Drive',
  claimedName: 'Tomi Sato',
  text: 'Night Drive is mine and unlicensed here.',
  status: 'OPEN',
  counterText: null,
  counteredAt: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  decidedAt: null,
  isFiler: false,
  isOwner: true,
  history: [filed],
  ...overrides,
});

const counterText = 'I hold a licence from the label for this mix.';

const viewer = { request: { query: ViewerDocument }, result: { data: { me: null } }, maxUsageCount: Number.POSITIVE_INFINITY };

/** The notice page at /notices/n-1, the notice as the API answers it, and what else the test expects to be asked. */
function renderNotice(value: ReturnType<typeof notice>, mocks: MockLink.MockedResponse[] = []) {
  localStorage.setItem('token', 'token-1');
  const router = createMemoryRouter([{ path: '/notices/:id', element: <NoticePage /> }], { initialEntries: ['/notices/n-1'] });
  const read = { request: { query: CopyrightNoticeDocument, variables: { id: 'n-1' } }, result: { data: { copyrightNotice: value } } };
  const view = render(
    <AuthProvider>
      <PlayerProvider>
        <MockedProvider mocks={[viewer, read, ...mocks]}>
          <RouterProvider router={router} />
        </MockedProvider>
      </PlayerProvider>
    </AuthProvider>,
  );
  return { user: userEvent.setup(), container: view.container };
}

describe('notice page and the counter-notice form', () => {
  it('shows the owner the notice, its history and the form; asks for words; sends the counter-notice and shows it; axe finds nothing', async () => {
    const countered = notice({
      status: 'COUNTERED',
      counterText,
      counteredAt: '2026-11-21T09:00:00.000Z',
      history: [
        filed,
        { __typename: 'NoticeEvent', action: 'notice.countered', by: 'OWNER', reason: null, at: '2026-11-21T09:00:00.000Z' },
      ],
    });
    let told = 0;
    const { user, container } = renderNotice(notice(), [
      {
        request: { query: CounterNoticeDocument, variables: { input: { noticeId: 'n-1', text: counterText } } },
        result: () => {
          told += 1;
          return { data: { counterNotice: countered } };
        },
      },
    ]);
    expect(screen.getByRole('status').textContent).toBe('Loading the notice');
    expect(await screen.findByRole('heading', { name: 'Copyright notice from Tomi Sato for “Night Drive”' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Warehouse Tapes' }).getAttribute('href')).toBe('/mix/mix-1');
    expect(screen.getByText('Night Drive is mine and unlicensed here.')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'History' }).textContent).toContain('The rights holder filed the notice');
    expect((await axe.run(container, { rules: { 'color-contrast': { enabled: false } } })).violations.map((v) => v.id)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Send counter-notice' }));
    expect(screen.getByRole('alert').textContent).toBe('Write the counter-notice: why the mix may stay.');
    expect(screen.getByRole('textbox', { name: 'Why the mix may stay' }).getAttribute('aria-invalid')).toBe('true');
    expect(told).toBe(0);

    await user.type(screen.getByRole('textbox', { name: 'Why the mix may stay' }), counterText);
    await user.click(screen.getByRole('button', { name: 'Send counter-notice' }));
    // The answer lands on the notice in the cache: the form gives way to the counter-notice and the new step.
    expect(await screen.findByText(counterText, { selector: 'blockquote' })).toBeTruthy();
    expect(told).toBe(1);
    expect(screen.queryByRole('button', { name: 'Send counter-notice' })).toBeNull();
    expect(screen.getByText(/Counter-notice sent: a moderator decides/)).toBeTruthy();
    expect(screen.getByText(/The mix’s owner sent a counter-notice/)).toBeTruthy();
  });

  it('shows the API’s refusal in words', async () => {
    const { user } = renderNotice(notice(), [
      {
        request: { query: CounterNoticeDocument, variables: { input: { noticeId: 'n-1', text: counterText } } },
        result: {
          errors: [new GraphQLError('This notice has been decided; it can no longer be answered', { extensions: { status: 409 } })],
        },
      },
    ]);
    await user.type(await screen.findByRole('textbox', { name: 'Why the mix may stay' }), counterText);
    await user.click(screen.getByRole('button', { name: 'Send counter-notice' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This notice has been decided; it can no longer be answered');
  });

  it('shows the filer the counter-notice, without a form', async () => {
    renderNotice(notice({ isOwner: false, isFiler: true, status: 'COUNTERED', counterText }));
    expect(await screen.findByText(counterText)).toBeTruthy();
    expect(screen.getByText(/you filed it/)).toBeTruthy();
    expect(screen.getByText(/Counter-notice sent: a moderator decides/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send counter-notice' })).toBeNull();
  });
});

it('tells a member who is no party to the notice that it is not theirs', async () => {
  localStorage.setItem('token', 'token-1');
  const router = createMemoryRouter([{ path: '/notices/:id', element: <NoticePage /> }], { initialEntries: ['/notices/n-1'] });
  render(
    <AuthProvider>
      <PlayerProvider>
        <MockedProvider
          mocks={[
            viewer,
            {
              request: { query: CopyrightNoticeDocument, variables: { id: 'n-1' } },
              result: {
                errors: [
                  new GraphQLError('Only its filer, the mix’s owner and moderators may read this notice', { extensions: { status: 403 } }),
                ],
              },
            },
          ]}
        >
          <RouterProvider router={router} />
        </MockedProvider>
      </PlayerProvider>
    </AuthProvider>,
  );
  expect((await screen.findByRole('alert')).textContent).toBe('Only its filer, the mix’s owner and moderators may read this notice ');
});
