import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ClaimCreatorDocument, MyCreatorClaimsDocument } from '../../gql/graphql';
import { ClaimForm, MyClaims } from './ClaimForm';

const claim = (overrides: Record<string, unknown> = {}) => ({
  __typename: 'CreatorClaim',
  id: 'c-1',
  subject: 'CREATOR',
  subjectName: 'Tomi Sato',
  status: 'PENDING',
  isDispute: false,
  ...overrides,
});

const myClaims = (claims: Record<string, unknown>[]): MockLink.MockedResponse => ({
  request: { query: MyCreatorClaimsDocument },
  result: { data: { myCreatorClaims: claims.map((item) => ({ createdAt: '2026-11-01T00:00:00.000Z', reason: null, ...item })) } },
  maxUsageCount: Number.POSITIVE_INFINITY,
});

const sent = (input: Record<string, unknown>, result: MockLink.MockedResponse['result']): MockLink.MockedResponse => ({
  request: { query: ClaimCreatorDocument, variables: { input } },
  result,
});

function renderForm(mocks: MockLink.MockedResponse[], props: Parameters<typeof ClaimForm>[0] = {}) {
  render(
    <MockedProvider mocks={[myClaims([]), ...mocks]}>
      <ClaimForm {...props} />
    </MockedProvider>,
  );
  return userEvent.setup();
}

async function open(user: ReturnType<typeof userEvent.setup>, summary: string) {
  await user.click(screen.getByText(summary));
}

describe('claim form', () => {
  it('on the profile: a typed name, its kind, evidence one per line and a note are sent; the member is told what happens next', async () => {
    const user = renderForm([
      sent(
        {
          subject: 'LABEL',
          name: 'Quay Records',
          trackId: null,
          evidence: ['https://quay.example', 'https://social.example/quay'],
          note: 'Our page',
        },
        { data: { claimCreator: claim({ subject: 'LABEL', subjectName: 'Quay Records' }) } },
      ),
    ]);
    await open(user, 'Claim a creator or label name');
    await user.selectOptions(screen.getByLabelText('Kind'), 'LABEL');
    await user.type(screen.getByLabelText('Name, as tracks credit it'), ' Quay Records ');
    await user.type(screen.getByLabelText(/Evidence links/), 'https://quay.example\nhttps://social.example/quay');
    await user.type(screen.getByLabelText('Note for the moderator'), 'Our page');
    await user.click(screen.getByRole('button', { name: 'Send claim' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Sent. A moderator will look at your claim on Quay Records; you will get a notification and an e-mail.',
    );
    expect((screen.getByLabelText(/Evidence links/) as HTMLTextAreaElement).value).toBe('');
  });

  it('on a track: the credited names to choose from; a held name is a dispute', async () => {
    const user = renderForm(
      [
        sent(
          { subject: 'LABEL', name: 'Deep Root', trackId: 't-1', evidence: ['https://deeproot.example'], note: null },
          { data: { claimCreator: claim({ subject: 'LABEL', subjectName: 'Deep Root', isDispute: true }) } },
        ),
      ],
      {
        trackId: 't-1',
        names: [
          { subject: 'CREATOR', name: 'Kora Vale' },
          { subject: 'LABEL', name: 'Deep Root' },
        ],
      },
    );
    await open(user, 'Is this you? Claim a name on this track');
    const name = screen.getByLabelText('Name');
    expect(
      within(name)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Kora Vale (creator)', 'Deep Root (label)']);
    await user.selectOptions(name, '1');
    await user.type(screen.getByLabelText(/Evidence links/), 'https://deeproot.example');
    await user.click(screen.getByRole('button', { name: 'Send claim' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Sent. Deep Root is held by another member: a moderator will look at both.',
    );
  });

  it('shows the server’s words when a claim is refused, the daily limit included', async () => {
    const refusal = 'Too many creator claims: at most 5 in a day. Please try again in 23 hours.';
    const user = renderForm([
      sent(
        { subject: 'CREATOR', name: 'Tomi Sato', trackId: null, evidence: ['https://tomi.example'], note: null },
        { errors: [new GraphQLError(refusal, { extensions: { code: 'TOO_MANY_REQUESTS', status: 429 } })] },
      ),
    ]);
    await open(user, 'Claim a creator or label name');
    await user.type(screen.getByLabelText('Name, as tracks credit it'), 'Tomi Sato');
    await user.type(screen.getByLabelText(/Evidence links/), 'https://tomi.example');
    await user.click(screen.getByRole('button', { name: 'Send claim' }));
    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
    // What the member typed stays, to send again later.
    expect((screen.getByLabelText(/Evidence links/) as HTMLTextAreaElement).value).toBe('https://tomi.example');
  });

  it('falls back to its own words when the server could not be reached', async () => {
    const user = renderForm([
      {
        request: {
          query: ClaimCreatorDocument,
          variables: { input: { subject: 'CREATOR', name: 'Tomi Sato', trackId: null, evidence: ['https://tomi.example'], note: null } },
        },
        error: new Error('offline'),
      },
    ]);
    await open(user, 'Claim a creator or label name');
    await user.type(screen.getByLabelText('Name, as tracks credit it'), 'Tomi Sato');
    await user.type(screen.getByLabelText(/Evidence links/), 'https://tomi.example');
    await user.click(screen.getByRole('button', { name: 'Send claim' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The claim could not be sent. Please try again.');
  });
});

describe('my claims', () => {
  it('shows nothing while the member has no claim', async () => {
    let answered = false;
    render(
      <MockedProvider
        mocks={[
          {
            request: { query: MyCreatorClaimsDocument },
            result: () => {
              answered = true;
              return { data: { myCreatorClaims: [] } };
            },
          },
        ]}
      >
        <MyClaims />
      </MockedProvider>,
    );
    await waitFor(() => expect(answered).toBe(true));
    expect(screen.queryByRole('list', { name: 'Your claims' })).toBeNull();
  });

  it('lists the member’s claims and where each stands', async () => {
    render(
      <MockedProvider
        mocks={[
          myClaims([
            claim(),
            claim({ id: 'c-2', subjectName: 'Quay Records', subject: 'LABEL', status: 'REJECTED', reason: 'No link to the label' }),
            claim({ id: 'c-3', subjectName: 'Kora Vale', isDispute: true }),
          ]),
        ]}
      >
        <MyClaims />
      </MockedProvider>,
    );
    const list = await screen.findByRole('list', { name: 'Your claims' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Tomi Sato (creator): waiting for a moderator',
      'Quay Records (label): not approved (No link to the label)',
      'Kora Vale (creator): waiting for a moderator, held by another member: a moderator settles it',
    ]);
  });
});
