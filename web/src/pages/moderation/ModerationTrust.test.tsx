import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import {
  HeldMixesDocument,
  ModerateTrustItemDocument,
  ModerationAccessDocument,
  ModerationQueueDocument,
  RestoreMixDocument,
  SetStrikePolicyDocument,
  StrikePolicyDocument,
  SuspendedMembersDocument,
  ViewerDocument,
} from '../../gql/graphql';
import { PlayerProvider } from '../../player/PlayerProvider';
import { ModerationPage } from './ModerationPage';

const always = { maxUsageCount: Number.POSITIVE_INFINITY };
const viewer = { request: { query: ViewerDocument }, result: { data: { me: null } }, ...always };
const access = (operator = false) => ({
  request: { query: ModerationAccessDocument },
  result: { data: { canModerate: true, canReadLedger: operator } },
});
const page = (typename: string, items: unknown[]) => ({ __typename: typename, totalCount: items.length, page: 0, items });
const held = (items: unknown[]) => ({
  request: { query: HeldMixesDocument, variables: { page: 0 } },
  result: { data: { heldMixes: page('HeldMixPage', items) } },
});
const suspended = {
  request: { query: SuspendedMembersDocument, variables: { page: 0 } },
  result: { data: { suspendedMembers: page('SuspendedMemberPage', []) } },
  ...always,
};

const details = (overrides: Record<string, unknown> = {}) => ({
  __typename: 'TrustItemDetails',
  targetKind: 'MIX',
  targetId: 'mix-1',
  targetName: 'Warehouse Tapes',
  mixState: null,
  ownerId: 'u-2',
  ownerName: 'DJ Owl',
  memberSuspended: false,
  memberSuspendedUntil: null,
  reason: 'SPAM',
  note: 'Uploaded ten times',
  recognisedTracks: ['Tomi Sato – Night Drive'],
  tracklist: ['Tomi Sato – Night Drive', 'Ana B – Pulse'],
  earlierReports: 1,
  reportHistory: [
    { __typename: 'ReportHistoryEntry', reason: 'ABUSE', status: 'DISMISSED', outcome: null, createdAt: '2026-10-02T10:00:00.000Z' },
  ],
  strikes: 2,
  notice: null,
  ...overrides,
});

const item = (id: string, kind: string, trust: ReturnType<typeof details>) => ({
  __typename: 'ModerationItem',
  id,
  kind,
  summary: kind === 'report' ? 'A report of a mix' : 'A copyright notice on a mix',
  links: [],
  status: 'OPEN',
  openedAt: '2026-11-20T10:00:00.000Z',
  decidedAt: null,
  reason: null,
  raisedBy: null,
  trust,
});

const queue = (items: ReturnType<typeof item>[]): MockLink.MockedResponse => ({
  request: { query: ModerationQueueDocument, variables: { status: 'OPEN', page: 0 } },
  result: { data: { moderationQueue: page('ModerationQueuePage', items) } },
});

const decided = (input: Record<string, unknown>): MockLink.MockedResponse => ({
  request: { query: ModerateTrustItemDocument, variables: { input } },
  result: { data: { moderateTrustItem: { __typename: 'ModerationItem', id: input.itemId, status: 'APPROVED' } } },
});

function renderPage(mocks: MockLink.MockedResponse[]) {
  localStorage.setItem('token', 'token-1');
  const router = createMemoryRouter([{ path: '/moderation', element: <ModerationPage /> }], { initialEntries: ['/moderation'] });
  const view = render(
    <AuthProvider>
      <PlayerProvider>
        <MockedProvider mocks={[viewer, suspended, ...mocks]}>
          <RouterProvider router={router} />
        </MockedProvider>
      </PlayerProvider>
    </AuthProvider>,
  );
  return { user: userEvent.setup(), container: view.container };
}

describe('moderation page: reports and notices', () => {
  it('shows a mix report with its details and suspends the owner until a date, by keyboard; axe finds nothing', async () => {
    const { user, container } = renderPage([
      access(),
      queue([item('q-1', 'report', details())]),
      held([]),
      decided({ itemId: 'q-1', action: 'SUSPEND_MEMBER', reason: 'Spam run', suspendedUntil: '2099-01-31T00:00:00.000Z' }),
      queue([]),
      held([]),
    ]);
    const report = await screen.findByRole('listitem', { name: 'Report' });
    expect(within(report).getByRole('link', { name: 'Warehouse Tapes' }).getAttribute('href')).toBe('/mix/mix-1');
    expect(within(report).getByText(/by DJ Owl/)).toBeTruthy();
    expect(within(report).getByText('Spam')).toBeTruthy();
    expect(within(within(report).getByRole('list', { name: 'Recognition found' })).getAllByRole('listitem')).toHaveLength(1);
    expect(within(within(report).getByRole('list', { name: 'Tracklist' })).getAllByRole('listitem')).toHaveLength(2);
    expect(within(report).getByRole('list', { name: 'Earlier reports' }).textContent).toContain('Abuse, dismissed');
    expect(report.textContent).toContain('Upheld copyright strikes: 2');
    expect(
      within(report)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Dismiss', 'Hide mix', 'Remove mix', 'Warn member', 'Suspend member']);
    expect((await axe.run(container, { rules: { 'color-contrast': { enabled: false } } })).violations.map((v) => v.id)).toEqual([]);

    await user.click(within(report).getByLabelText(/^Reason/));
    await user.keyboard('Spam run');
    await user.type(within(report).getByLabelText('Suspend until (empty: until restored)'), '2099-01-31');
    within(report).getByRole('button', { name: 'Suspend member' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Nothing here.')).toBeTruthy();
  });

  it('offers a member report only what fits a member', async () => {
    renderPage([
      access(),
      queue([item('q-2', 'report', details({ targetKind: 'MEMBER', targetId: 'u-3', targetName: 'spammer', reason: 'IMPERSONATION' }))]),
      held([]),
    ]);
    const report = await screen.findByRole('listitem', { name: 'Report' });
    expect(
      within(report)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Dismiss', 'Warn member', 'Suspend member']);
    expect(within(report).queryByRole('list', { name: 'Tracklist' })).toBeNull();
  });

  it('shows a notice with its counter-notice and restores the mix; the held mix list offers Restore too', async () => {
    const notice = {
      __typename: 'CopyrightNotice' as const,
      id: 'n-1',
      claimedName: 'Tomi Sato',
      trackTitle: 'Night Drive',
      text: 'Night Drive is mine.',
      status: 'COUNTERED' as const,
      counterText: 'I hold a licence.',
      counteredAt: '2026-11-21T09:00:00.000Z',
    };
    const heldMix = {
      __typename: 'HeldMix',
      mixId: 'mix-1',
      title: 'Warehouse Tapes',
      ownerName: 'DJ Owl',
      state: 'HIDDEN',
      reason: null,
      at: null,
    };
    const { user } = renderPage([
      access(),
      queue([item('q-3', 'copyright_notice', details({ reason: null, note: null, mixState: 'HIDDEN', notice }))]),
      held([heldMix]),
      decided({ itemId: 'q-3', action: 'RESTORE', reason: null, suspendedUntil: null }),
      queue([]),
      held([]),
    ]);
    const card = await screen.findByRole('listitem', { name: 'Copyright notice' });
    expect(within(card).getByText('Night Drive is mine.')).toBeTruthy();
    expect(within(card).getByText('I hold a licence.')).toBeTruthy();
    expect(card.textContent).toContain('hidden');
    expect(
      within(card)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Restore mix', 'Remove mix', 'Remove and strike']);
    expect(await screen.findByRole('button', { name: 'Restore Warehouse Tapes' })).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Restore mix' }));
    expect(await screen.findByText('Nothing here.')).toBeTruthy();
    expect(await screen.findByText('No mix is hidden or removed.')).toBeTruthy();
  });

  it('restores a held mix from the list', async () => {
    const heldMix = {
      __typename: 'HeldMix',
      mixId: 'mix-1',
      title: 'Warehouse Tapes',
      ownerName: 'DJ Owl',
      state: 'REMOVED',
      reason: 'Upheld',
      at: null,
    };
    const { user } = renderPage([
      access(),
      queue([]),
      held([heldMix]),
      { request: { query: RestoreMixDocument, variables: { input: { id: 'mix-1' } } }, result: { data: { restoreMix: true } } },
      held([]),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Restore Warehouse Tapes' }));
    expect((await screen.findByText('Warehouse Tapes is restored.')).getAttribute('role')).toBe('status');
    expect(await screen.findByText('No mix is hidden or removed.')).toBeTruthy();
  });

  it('lets an operator set the strike policy', async () => {
    const { user } = renderPage([
      access(true),
      queue([]),
      held([]),
      {
        request: { query: StrikePolicyDocument },
        result: { data: { strikePolicy: { __typename: 'StrikePolicy', strikeLimit: 3, windowDays: 365 } } },
      },
      {
        request: { query: SetStrikePolicyDocument, variables: { input: { strikeLimit: 2, windowDays: 365, reason: null } } },
        result: { data: { setStrikePolicy: { __typename: 'StrikePolicy', strikeLimit: 2, windowDays: 365 } } },
      },
    ]);
    const limit = await screen.findByRole('spinbutton', { name: 'Strikes that block uploads' });
    expect((limit as HTMLInputElement).value).toBe('3');
    await user.clear(limit);
    await user.type(limit, '2');
    await user.click(screen.getByRole('button', { name: 'Save strike policy' }));
    expect(await screen.findByText('Uploads now stop at 2 strikes within 365 days.')).toBeTruthy();
  });
});
