import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';

/**
 * The GraphQL explorer at /graphql (the API answers a browser's GET with this page): GraphiQL from our own files, so it
 * works offline and under the site's Content-Security-Policy. Queries go over HTTP, subscriptions over the same
 * graphql-ws socket the app uses.
 */
const socketUrl = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`;
const fetcher = createGraphiQLFetcher({ url: '/graphql', subscriptionUrl: socketUrl });

const EXAMPLE = `# Public mixes near Berlin, newest first: no token needed.
# Add {"Authorization": "Bearer <token>"} under Headers to act as a member.
query Feed {
  feed(first: 5, from: { latitude: 52.52, longitude: 13.405 }, radiusKm: 500) {
    totalCount
    edges {
      cursor
      node { id title genre owner { userName } }
    }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}
`;

const root = document.getElementById('explorer');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <GraphiQL fetcher={fetcher} defaultQuery={EXAMPLE} defaultEditorToolsVisibility="headers" />
    </StrictMode>,
  );
}
