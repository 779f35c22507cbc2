import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import {
  AuditLogDocument,
  DecideModerationItemDocument,
  ModerationAccessDocument,
  ModerationQueueDocument,
  ModeratorsDocument,
  SetModeratorDocument,
  ViewerDocument,
} from '../../gql/graphql';
import { PlayerProvider } from '../../player/PlayerProvider';
import { ModerationPage } from './ModerationPage';

const always = { maxUsageCount: Number.POSITIVE_INFINITY };
const viewer = { request: { query: ViewerDocument }, result: { data: { me: null } }, ...always };

const access = (canModerate: boolean, canReadLedger = false, delay = 0): MockLink.MockedResponse => ({
  request: { query: ModerationAccessDocument },
  result: { data: { canModerate, canReadLedger } },
  delay,
});

const item = (id: string, overrides: Record<string, unknown> = {}) => ({
  __typename: 'ModerationItem',
  id,
  kind: 'creator_claim',
  summary: '@tomi claims the creator "Tomi Sato". Note: My own label page',
  links: ['https://tomisato.example/about'],
  status: 'OPEN',
  openedAt: '2026-11-20T10:00:00.000Z',
  decidedAt: null,
  reason: null,
  raisedBy: { __typename: 'User', id: 'u-1', userName: 'tomi', displayName: 'Tomi' },
  trust: null,
  ...overrides,
});

const queue = (items: ReturnType<typeof item>[], result?: () => void): MockLink.MockedResponse => ({
  request: { query: ModerationQueueDocument, variables: { status: 'OPEN', page: 0 } },
  result: () => {
    result?.();
    return { data: { moderationQueue: { __typename: 'ModerationQueue', totalCount: items.length, page: 0, items } } };
  },
});

function renderPage(mocks: MockLink.MockedResponse[]) {
  localStorage.setItem('token', 'token-1');
  const router = createMemoryRouter(
    [
      { path: '/moderation', element: <ModerationPage /> },
      { path: '/profile/:userName', element: <p>A profile</p> },
    ],
    { initialEntries: ['/moderation'] },
  );
  render(
    <AuthProvider>
      <PlayerProvider>
        <MockedProvider mocks={[viewer, ...mocks]}>
          <RouterProvider router={router} />
        </MockedProvider>
      </PlayerProvider>
    </AuthProvider>,
  );
  return userEvent.setup();
}

describe('moderation page', () => {
  it('loads, then tells a member the page is not theirs', async () => {
    renderPage([access(false, false, 30)]);
    expect(screen.getByRole('status').textContent).toBe('Loading');
    expect(await screen.findByText('This page is for moderators and operators.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Queue' })).toBeNull();
  });

  it('shows a moderator an empty queue, and no operator sections', async () => {
    renderPage([access(true), queue([])]);
    expect(await screen.findByText('Nothing here.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Moderators' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Audit log' })).toBeNull();
  });

  it('says when the queue could not be loaded', async () => {
    renderPage([
      access(true),
      { request: { query: ModerationQueueDocument, variables: { status: 'OPEN', page: 0 } }, error: new Error('down') },
    ]);
    expect(await screen.findByText('The queue could not be loaded. Please try again later.')).toBeTruthy();
  });

  it('approves a claim with a reason, then reloads the queue', async () => {
    let loads = 0;
    const user = renderPage([
      access(true),
      queue([item('q-1')], () => {
        loads += 1;
      }),
      {
        request: {
          query: DecideModerationItemDocument,
          variables: { input: { itemId: 'q-1', decision: 'APPROVE', reason: 'Label page checks out' } },
        },
        result: { data: { decideModerationItem: { __typename: 'ModerationItem', id: 'q-1', status: 'APPROVED' } } },
      },
      queue([], () => {
        loads += 1;
      }),
    ]);
    const items = await screen.findByRole('list', { name: 'Queue items' });
    const claim = within(items).getByRole('listitem', { name: 'Creator claim' });
    expect(within(claim).getByText(/claims the creator "Tomi Sato"/)).toBeTruthy();
    expect(within(claim).getByRole('link', { name: 'https://tomisato.example/about' }).getAttribute('rel')).toBe('noreferrer noopener');
    await user.type(within(claim).getByLabelText(/^Reason/), 'Label page checks out');
    await user.click(within(claim).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Nothing here.')).toBeTruthy();
    expect(loads).toBe(2);
  });

  it('shows the server’s words when a decision fails', async () => {
    const user = renderPage([
      access(true),
      queue([item('q-2', { kind: 'claim_dispute' })]),
      {
        request: { query: DecideModerationItemDocument, variables: { input: { itemId: 'q-2', decision: 'REJECT', reason: null } } },
        result: { errors: [new GraphQLError('This item was already decided')] },
      },
      queue([item('q-2', { kind: 'claim_dispute' })]),
    ]);
    const dispute = await screen.findByRole('listitem', { name: 'Disputed claim' });
    await user.click(within(dispute).getByRole('button', { name: 'Reject' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This item was already decided');
  });

  it('lets an operator grant a moderator and read the audit log', async () => {
    const moderators = (list: { id: string; userName: string }[]): MockLink.MockedResponse => ({
      request: { query: ModeratorsDocument },
      result: {
        data: {
          moderators: list.map((entry) => ({ __typename: 'User', displayName: null, email: `${entry.userName}@example.com`, ...entry })),
        },
      },
    });
    const user = renderPage([
      access(true, true),
      queue([]),
      moderators([]),
      {
        request: { query: AuditLogDocument, variables: { page: 0 } },
        result: {
          data: {
            auditLog: {
              __typename: 'AuditLogPage',
              totalCount: 1,
              page: 0,
              items: [
                {
                  __typename: 'AuditEntry',
                  id: 'a-1',
                  actorName: 'ops',
                  action: 'claim.approve',
                  targetKind: 'creator_claim',
                  targetName: 'Tomi Sato',
                  reason: 'Label page checks out',
                  at: '2026-11-20T11:00:00.000Z',
                },
              ],
            },
          },
        },
      },
      {
        request: { query: SetModeratorDocument, variables: { input: { member: 'mira', grant: true, reason: null } } },
        result: { data: { setModerator: true } },
      },
      moderators([{ id: 'u-9', userName: 'mira' }]),
    ]);
    expect(await screen.findByText('No moderators yet.')).toBeTruthy();
    const audit = await screen.findByRole('region', { name: 'Audit log table' });
    expect(within(audit).getByText('claim.approve')).toBeTruthy();
    await user.type(screen.getByLabelText('Member (user name or e-mail)'), 'mira');
    await user.click(screen.getByRole('button', { name: 'Make moderator' }));
    expect((await screen.findByRole('status')).textContent).toBe('mira is now a moderator.');
    expect(await screen.findByRole('button', { name: 'Revoke moderator' })).toBeTruthy();
  });
});
