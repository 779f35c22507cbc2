import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireAuth } from './auth/RequireAuth';
import { RootLayout, RouteFallback } from './components/RootLayout';
import { RouteError } from './components/RouteError';

/** A route's screen, fetched as its own chunk on the first visit. */
function lazyScreen<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType): RouteObject['lazy'] {
  return async () => ({ Component: pick(await load()) });
}

/**
 * SPEC §2 routes. Every screen is its own chunk, so the landing page downloads only itself.
 * Screens that talk to the API sit under the GraphQL boundary (also lazy: it brings Apollo with it);
 * private screens sit under RequireAuth as well.
 * A function, because a router takes ownership of its route objects (lazy routes are patched in place).
 */
export const appRoutes = (): RouteObject[] => [
  {
    Component: RootLayout,
    HydrateFallback: RouteFallback,
    ErrorBoundary: RouteError,
    children: [
      {
        index: true,
        lazy: lazyScreen(
          () => import('./pages/landing/LandingPage'),
          (m) => m.LandingPage,
        ),
      },
      {
        lazy: lazyScreen(
          () => import('./lib/GraphQLBoundary'),
          (m) => m.GraphQLBoundary,
        ),
        children: [
          {
            path: 'signin',
            lazy: lazyScreen(
              () => import('./pages/signin/SignInPage'),
              (m) => m.SignInPage,
            ),
          },
          {
            Component: RequireAuth,
            children: [
              {
                path: 'home',
                lazy: lazyScreen(
                  () => import('./pages/home/HomePage'),
                  (m) => m.HomePage,
                ),
              },
            ],
          },
        ],
      },
      {
        path: '*',
        lazy: lazyScreen(
          () => import('./pages/not-found/NotFoundPage'),
          (m) => m.NotFoundPage,
        ),
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes());
}
