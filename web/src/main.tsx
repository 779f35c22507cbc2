import { HELD_CLICKS_GLOBAL } from '@mixcrate/api/server-render';
import { type ReactNode, StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import type { $ZodConfig } from 'zod/v4/core';
import { AuthProvider } from './auth/auth';
import { canHydrateServerRender } from './lib/server-state';
import { appRoutes } from './router';
import './styles/global.css';

// Zod compiles its object parsers with eval, which the page's Content-Security-Policy forbids, and even its probe for
// eval is a reported violation. Zod reads its configuration from this global (shared by every copy of zod since zod
// PR 5889); set here, before any screen's chunk builds a schema, it keeps zod out of this entry chunk (its config()
// would bring 3.7 KB gzipped of zod onto the landing page).
const zodGlobal = globalThis as { __zod_globalConfig?: $ZodConfig };
zodGlobal.__zod_globalConfig = Object.assign(zodGlobal.__zod_globalConfig ?? {}, { jitless: true });

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/** The screens of the current address, loaded before hydration: hydrating shows them, not the loading fallback. */
async function loadMatchedScreens(routes: RouteObject[]): Promise<void> {
  const lazy = (matchRoutes(routes, window.location) ?? []).filter((match) => match.route.lazy);
  await Promise.all(
    lazy.map(async ({ route }) => {
      const loaded = await (route.lazy as () => Promise<Partial<RouteObject>>)();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}

/**
 * Clicks on the server's markup that its page held until the app could answer them (api/src/http/share-meta.ts); the
 * page stops holding clicks once they are taken.
 */
const takeHeldClicks = (): HTMLElement[] =>
  (window as unknown as Partial<Record<typeof HELD_CLICKS_GLOBAL, () => HTMLElement[]>>)[HELD_CLICKS_GLOBAL]?.() ?? [];

/** Answers the held clicks once hydration has made the server's buttons the app's. */
function AnswerHeldClicks({ children }: { children: ReactNode }) {
  useEffect(() => {
    for (const button of takeHeldClicks()) button.click();
  }, []);
  return children;
}

const routes = appRoutes();
const app = () => (
  <StrictMode>
    <AuthProvider>
      <RouterProvider router={createBrowserRouter(routes)} />
    </AuthProvider>
  </StrictMode>
);

// Shared links arrive rendered by the server (src/server/render.tsx): hydrate what is on screen. Elsewhere, a
// transition, so React renders the first screen in slices that let the browser breathe (no long task on a slow phone).
// No top-level await: it would make the bundler split the entry's modules into many small chunks.
if (canHydrateServerRender()) {
  void loadMatchedScreens(routes).then(() =>
    startTransition(() => {
      hydrateRoot(container, <AnswerHeldClicks>{app()}</AnswerHeldClicks>);
    }),
  );
} else {
  // The server's markup is replaced by the app's own render: clicks held on it have nothing left to answer them.
  takeHeldClicks();
  container.replaceChildren();
  startTransition(() => {
    createRoot(container).render(app());
  });
}
