import { MockedProvider } from '@apollo/client/testing/react';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ViewerDocument } from '../gql/graphql';
import { createApolloClient } from '../lib/apollo';
import { SignInPage } from '../pages/signin/SignInPage';
import { PlayerProvider } from '../player/PlayerProvider';
import { AuthProvider, SESSION_REFUSED_EVENT, SESSION_REFUSED_NOTICE } from './auth';
import { RequireAuth } from './RequireAuth';

const UNAUTHENTICATED = {
  errors: [{ message: 'You have been signed out, please sign in again', extensions: { code: 'UNAUTHENTICATED' } }],
};
const answer = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/graphql-response+json' } });

/** Counts the refusals the app is told of while `run` runs. */
async function refusalsDuring(run: () => Promise<unknown>): Promise<number> {
  let told = 0;
  const count = () => {
    told += 1;
  };
  window.addEventListener(SESSION_REFUSED_EVENT, count);
  try {
    await run();
  } finally {
    window.removeEventListener(SESSION_REFUSED_EVENT, count);
  }
  return told;
}

describe('a token the API refuses', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is told to the app when the API answers 401, and not for an operation’s own error', async () => {
    localStorage.setItem('token', 'ended-session');
    const client = createApolloClient('http://localhost/graphql');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(401, UNAUTHENTICATED)),
    );
    expect(await refusalsDuring(() => client.query({ query: ViewerDocument }).catch(() => undefined))).toBe(1);

    // A wrong password at sign-in is UNAUTHENTICATED too, but the request itself was accepted.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(200, { data: null, ...UNAUTHENTICATED })),
    );
    expect(await refusalsDuring(() => client.query({ query: ViewerDocument, fetchPolicy: 'network-only' }).catch(() => undefined))).toBe(0);
  });

  it('sends the operation once more without the token, so signing in again works at the first try', async () => {
    localStorage.setItem('token', 'ended-session');
    const client = createApolloClient('http://localhost/graphql');
    const sentTokens: (string | null)[] = [];
    const fetch = vi.fn(async (_url: string, init: RequestInit) => {
      sentTokens.push(new Headers(init.headers).get('x-auth-token'));
      return sentTokens.length === 1 ? answer(401, UNAUTHENTICATED) : answer(200, { data: { me: null } });
    });
    vi.stubGlobal('fetch', fetch);
    // As the app does when told: the stored login goes.
    const forget = () => localStorage.removeItem('token');
    window.addEventListener(SESSION_REFUSED_EVENT, forget);
    try {
      const result = await client.query({ query: ViewerDocument });
      expect(result.data).toEqual({ me: null });
    } finally {
      window.removeEventListener(SESSION_REFUSED_EVENT, forget);
    }
    expect(sentTokens).toEqual(['ended-session', null]);

    // Once only: a refusal of the second try is the answer.
    localStorage.setItem('token', 'ended-session');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(401, UNAUTHENTICATED)),
    );
    await client.query({ query: ViewerDocument, fetchPolicy: 'network-only' }).catch(() => undefined);
    expect(vi.mocked(globalThis.fetch)).toHaveBeenCalledTimes(2);
  });

  it('signs out here, and a private page leads to the sign-in page, which says why', async () => {
    localStorage.setItem('token', 'ended-session');
    const router = createMemoryRouter(
      [
        { element: <RequireAuth />, children: [{ path: '/home', element: <h1>Home</h1> }] },
        { path: '/signin', element: <SignInPage /> },
      ],
      { initialEntries: ['/home'] },
    );
    render(
      <AuthProvider>
        <PlayerProvider>
          <MockedProvider mocks={[{ request: { query: ViewerDocument }, result: { data: { me: null } } }]}>
            <RouterProvider router={router} />
          </MockedProvider>
        </PlayerProvider>
      </AuthProvider>,
    );
    await screen.findByRole('heading', { name: 'Home' });
    act(() => {
      window.dispatchEvent(new Event(SESSION_REFUSED_EVENT));
    });
    expect((await screen.findByText(SESSION_REFUSED_NOTICE)).getAttribute('role')).toBe('status');
    expect(localStorage.getItem('token')).toBeNull();
  });
});
