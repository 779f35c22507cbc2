import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApolloServerPlugin } from '@apollo/server';

/** Without a web build (tests, or the API alone in development) the explorer cannot load: say how to get it. */
const WITHOUT_WEB_BUILD = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mixcrate GraphQL</title></head>
<body><main><h1>mixcrate GraphQL</h1><p>POST queries here as JSON; subscriptions use graphql-ws on this path.</p>
<p>The explorer comes with the web build: run <code>npm run build -w web</code> and restart. The REST reference is at <a href="/docs">/docs</a>.</p></main></body></html>`;

/**
 * A browser's GET /graphql opens the explorer (GraphiQL, built with the web app from web/src/explorer, so it comes from
 * our own files: it works offline and under the site's Content-Security-Policy, where Apollo's default landing page
 * loads from a CDN and stays blank). In every mode: the schema is public (introspection is on).
 */
export function explorerLandingPage(webRoot: string | undefined): ApolloServerPlugin {
  let page: Promise<string> | null = null;
  const html = () => {
    page ??= webRoot ? readFile(join(webRoot, 'explorer.html'), 'utf8').catch(() => WITHOUT_WEB_BUILD) : Promise.resolve(WITHOUT_WEB_BUILD);
    return page;
  };
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html };
        },
      };
    },
  };
}
