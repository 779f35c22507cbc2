import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { GraphQLError } from 'graphql';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ReportContentDocument } from '../../gql/graphql';
import { ReportButton } from './ReportDialog';

const input = { targetKind: 'MIX', targetId: 'mix-1', reason: 'SPAM', note: 'Same upload every hour' };

const sent = (result: MockLink.MockedResponse['result']): MockLink.MockedResponse => ({
  request: { query: ReportContentDocument, variables: { input } },
  result,
});

const refused = (message: string, status: number): MockLink.MockedResponse =>
  sent({ errors: [new GraphQLError(message, { extensions: { code: status === 409 ? 'CONFLICT' : 'TOO_MANY_REQUESTS', status } })] });

function renderButton(mocks: MockLink.MockedResponse[]) {
  const router = createMemoryRouter(
    [
      { path: '/mix/mix-1', element: <ReportButton targetKind="MIX" targetId="mix-1" targetName="Sunday Selector" /> },
      { path: '/reports', element: <h1>My reports</h1> },
    ],
    { initialEntries: ['/mix/mix-1'] },
  );
  const view = render(
    <MockedProvider mocks={mocks}>
      <RouterProvider router={router} />
    </MockedProvider>,
  );
  return { user: userEvent.setup(), container: view.container };
}

async function fillAndSend(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Report' }));
  await user.click(screen.getByRole('radio', { name: 'Spam' }));
  await user.type(screen.getByRole('textbox', { name: 'Note for the moderators (optional)' }), 'Same upload every hour');
  await user.click(screen.getByRole('button', { name: 'Send report' }));
}

describe('report dialog', () => {
  it('opens with the focus on the first reason, asks for a reason, sends the report and says where to follow it; axe finds nothing', async () => {
    const report = {
      __typename: 'Report',
      id: 'r-1',
      ...input,
      targetName: 'Sunday Selector',
      status: 'OPEN',
      outcome: null,
      createdAt: '2026-11-26T10:00:00.000Z',
      decidedAt: null,
    };
    const { user, container } = renderButton([sent({ data: { reportContent: report } })]);
    await user.click(screen.getByRole('button', { name: 'Report' }));
    const dialog = screen.getByRole('dialog', { name: 'Report this mix: Sunday Selector' });
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Copyright' }));
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual([
      'COPYRIGHT',
      'ABUSE',
      'SPAM',
      'IMPERSONATION',
      'OTHER',
    ]);
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose a reason.');
    expect((await axe.run(dialog, { rules: { 'color-contrast': { enabled: false } } })).violations.map((v) => v.id)).toEqual([]);

    await user.click(screen.getByRole('radio', { name: 'Spam' }));
    await user.type(screen.getByRole('textbox', { name: 'Note for the moderators (optional)' }), 'Same upload every hour');
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect((await screen.findByRole('status')).textContent).toContain('the moderators will look at it');
    expect(screen.getByRole('link', { name: 'My reports' }).getAttribute('href')).toBe('/reports');
    expect((await axe.run(container, { rules: { 'color-contrast': { enabled: false } } })).violations.map((v) => v.id)).toEqual([]);
  });

  it('says plainly that the member already reported it, with the way to their open report', async () => {
    const { user } = renderButton([refused('You have already reported this; a moderator will look at your open report', 409)]);
    await fillAndSend(user);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'Already reported: You have already reported this; a moderator will look at your open report See My reports.',
    );
    expect(screen.getByRole('link', { name: 'See My reports' }).getAttribute('href')).toBe('/reports');
  });

  it('says when the member has reported too much this hour, and keeps what they wrote', async () => {
    const { user } = renderButton([refused('You can file at most 10 reports an hour; please try again later', 429)]);
    await fillAndSend(user);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many reports: You can file at most 10 reports an hour; please try again later',
    );
    expect((screen.getByRole('textbox', { name: 'Note for the moderators (optional)' }) as HTMLTextAreaElement).value).toBe(
      'Same upload every hour',
    );
  });

  it('closes on Escape and gives the focus back to Report', async () => {
    const { user } = renderButton([]);
    await user.click(screen.getByRole('button', { name: 'Report' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Report' }));
  });
});
