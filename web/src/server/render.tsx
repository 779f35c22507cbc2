/**
 * Server rendering of the pages people arrive at from a shared link, built by `vite build --ssr` into dist-server/ and
 * called by the API. A shared link is most visitors' first page, often on a phone: it shows the mix in the first
 * response and hydrates when the app's JavaScript arrives, instead of painting nothing until then.
 */
import { ApolloClient, ApolloLink } from '@apollo/client';
import { addTypenameToDocument } from '@apollo/client/utilities';
import type { ExecuteQuery, RenderPage } from '@mixcrate/api/server-render';
import { print } from 'graphql';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, matchRoutes } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AuthProvider } from '../auth/auth';
import { MixPageDocument, type MixPageQuery, MixStatsDocument, type MixStatsQuery } from '../gql/graphql';
import { createCache, ServerRenderClient } from '../lib/apollo';
import { appRoutes, SHARED_MIX_ROUTE } from '../router';

// With __typename on every object, as the browser's client asks: the cache needs it to read fragments back.
const MIX_PAGE_QUERY = print(addTypenameToDocument(MixPageDocument));
const MIX_STATS_QUERY = print(addTypenameToDocument(MixStatsDocument));

async function initialised(router: ReturnType<typeof createMemoryRouter>): Promise<void> {
  if (router.state.initialized) return;
  await new Promise<void>((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

// The screens a shared link shows are loaded with this module, so the first visitor waits for no import.
const screensLoaded = (async () => {
  const router = createMemoryRouter(appRoutes(), { initialEntries: ['/shared-mix/00000000-0000-4000-8000-000000000000'] });
  await initialised(router);
  router.dispose();
})();

/** The page at `path` rendered with its data, or null for paths this renders not (the client renders those). */
export const renderPage: RenderPage = async (path: string, execute: ExecuteQuery) => {
  const mixId = matchRoutes(appRoutes(), path)?.find((match) => match.route.id === SHARED_MIX_ROUTE)?.params.id;
  if (!mixId) return null;
  await screensLoaded;
  const [data, stats] = await Promise.all([execute(MIX_PAGE_QUERY, { id: mixId }), execute(MIX_STATS_QUERY, { mixId })]);
  if (!data?.mix) return null;

  // The page's queries answered from this cache; anything else stays loading, as it is when the client hydrates.
  const client = new ApolloClient({ cache: createCache(), link: ApolloLink.empty(), ssrMode: true });
  // The data are the answers of our own schema to these very documents (the server executed them for us).
  client.writeQuery({ query: MixPageDocument, variables: { id: mixId }, data: data as MixPageQuery });
  if (stats) client.writeQuery({ query: MixStatsDocument, variables: { mixId }, data: stats as MixStatsQuery });

  const router = createMemoryRouter(appRoutes(), { initialEntries: [path] });
  await initialised(router);
  const html = renderToString(
    <StrictMode>
      <AuthProvider>
        <ServerRenderClient.Provider value={client}>
          <RouterProvider router={router} />
        </ServerRenderClient.Provider>
      </AuthProvider>
    </StrictMode>,
  );
  router.dispose();
  const state = client.extract();
  client.stop();
  return { html, state };
};
