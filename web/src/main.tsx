import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AuthProvider } from './auth/auth';
import { canHydrateServerRender } from './lib/server-state';
import { appRoutes } from './router';
import './styles/global.css';

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
      hydrateRoot(container, app());
    }),
  );
} else {
  container.replaceChildren();
  startTransition(() => {
    createRoot(container).render(app());
  });
}
