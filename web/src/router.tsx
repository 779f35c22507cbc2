import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { RequireAuth } from './auth/RequireAuth';
import { RootLayout, RouteFallback } from './components/RootLayout';
import { RouteError } from './components/RouteError';
// The landing page is the first screen most visitors see: part of the entry, so it paints without a second round trip.
import { LandingPage } from './pages/landing/LandingPage';

/** The id of the shared mix route, which the server renders (src/server/render.tsx). */
export const SHARED_MIX_ROUTE = 'shared-mix';

/** A route's screen, fetched as its own chunk on the first visit. */
function lazyScreen<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType): RouteObject['lazy'] {
  return async () => ({ Component: pick(await load()) });
}

const screen = <Module,>(path: string, load: () => Promise<Module>, pick: (module: Module) => ComponentType): RouteObject => ({
  path,
  lazy: lazyScreen(load, pick),
});

/**
 * Routes (docs/navigation.md#routes). Every screen but the landing page is its own chunk, so the landing page downloads only itself. Every screen after the
 * landing page sits under the GraphQL boundary (lazy: it brings Apollo and the player bar); private screens sit under
 * RequireAuth as well. The audio element itself lives in RootLayout, so playback survives every navigation.
 * A function, because a router takes ownership of its route objects (lazy routes are patched in place).
 */
export const appRoutes = (): RouteObject[] => [
  {
    Component: RootLayout,
    HydrateFallback: RouteFallback,
    ErrorBoundary: RouteError,
    children: [
      { index: true, Component: LandingPage },
      {
        lazy: lazyScreen(
          () => import('./lib/GraphQLBoundary'),
          (m) => m.GraphQLBoundary,
        ),
        children: [
          screen(
            'signin',
            () => import('./pages/signin/SignInPage'),
            (m) => m.SignInPage,
          ),
          screen(
            'signin/enter-reset-password',
            () => import('./pages/reset/EnterResetEmailPage'),
            (m) => m.EnterResetEmailPage,
          ),
          screen(
            'signin/password-reset',
            () => import('./pages/reset/CreatePasswordPage'),
            (m) => m.CreatePasswordPage,
          ),
          screen(
            'signup/:step?',
            () => import('./pages/signup/SignUpPage'),
            (m) => m.SignUpPage,
          ),
          {
            ...screen(
              'shared-mix/:id',
              () => import('./pages/mix/SharedMixPage'),
              (m) => m.SharedMixPage,
            ),
            id: SHARED_MIX_ROUTE,
          },
          // Public, for visitors and members alike; the page's shell follows the sign-in (docs/search.md#the-results-page).
          screen(
            'search',
            () => import('./pages/search/SearchPage'),
            (m) => m.SearchPage,
          ),
          // Public: shared mixes' tracklists link here too; the page's shell follows the sign-in.
          screen(
            'track/:id',
            () => import('./pages/track/TrackPage'),
            (m) => m.TrackPage,
          ),
          screen(
            'shared-profile/:userName',
            () => import('./pages/profile/SharedProfilePage'),
            (m) => m.SharedProfilePage,
          ),
          screen(
            'privacy',
            () => import('./pages/static/PrivacyPage'),
            (m) => m.PrivacyPage,
          ),
          screen(
            'terms',
            () => import('./pages/static/TermsPage'),
            (m) => m.TermsPage,
          ),
          screen(
            'creator-earnings',
            () => import('./pages/earnings/PublicEarningsPage'),
            (m) => m.PublicEarningsPage,
          ),
          screen(
            'transparency',
            () => import('./pages/trust/TransparencyPage'),
            (m) => m.TransparencyPage,
          ),
          screen(
            'change-log',
            () => import('./pages/static/ChangeLogPage'),
            (m) => m.ChangeLogPage,
          ),
          {
            Component: RequireAuth,
            children: [
              screen(
                'home',
                () => import('./pages/home/HomePage'),
                (m) => m.HomePage,
              ),
              screen(
                'mix/:id',
                () => import('./pages/mix/MixPage'),
                (m) => m.MixPage,
              ),
              screen(
                'saved-mix',
                () => import('./pages/saved/SavedMixesPage'),
                (m) => m.SavedMixesPage,
              ),
              screen(
                'profile/:userName',
                () => import('./pages/profile/ProfilePage'),
                (m) => m.ProfilePage,
              ),
              screen(
                'earnings',
                () => import('./pages/earnings/EarningsPage'),
                (m) => m.EarningsPage,
              ),
              screen(
                'moderation',
                () => import('./pages/moderation/ModerationPage'),
                (m) => m.ModerationPage,
              ),
              screen(
                'reports',
                () => import('./pages/trust/MyReportsPage'),
                (m) => m.MyReportsPage,
              ),
              screen(
                'notices',
                () => import('./pages/trust/NoticePages'),
                (m) => m.MyNoticesPage,
              ),
              screen(
                'notices/:id',
                () => import('./pages/trust/NoticePages'),
                (m) => m.NoticePage,
              ),
              screen(
                'follows',
                () => import('./pages/follows/FollowsPage'),
                (m) => m.FollowsPage,
              ),
              screen(
                'settings',
                () => import('./pages/settings/SettingsPage'),
                (m) => m.SettingsPage,
              ),
              screen(
                'upload',
                () => import('./pages/upload/UploadPage'),
                (m) => m.UploadPage,
              ),
              screen(
                'upload/track-list',
                () => import('./pages/upload-track-list/TrackListPage'),
                (m) => m.TrackListPage,
              ),
              screen(
                'upload/confirm',
                () => import('./pages/upload-confirm/ConfirmPage'),
                (m) => m.ConfirmPage,
              ),
              screen(
                'upload/payment',
                () => import('./pages/upload-payment/PaymentPage'),
                (m) => m.PaymentPage,
              ),
              screen(
                'upload/payment/success-code',
                () => import('./pages/payment-result/PaymentResultPage'),
                (m) => m.CodeSuccessPage,
              ),
              screen(
                'upload/payment/success-purchase',
                () => import('./pages/payment-result/PaymentResultPage'),
                (m) => m.PurchaseSuccessPage,
              ),
              screen(
                'upload/payment/success-subscription',
                () => import('./pages/payment-result/PaymentResultPage'),
                (m) => m.SubscriptionSuccessPage,
              ),
              screen(
                'upload/payment/canceled-purchase',
                () => import('./pages/payment-result/PaymentResultPage'),
                (m) => m.CanceledPurchasePage,
              ),
              screen(
                'upload/payment/canceled-subscription',
                () => import('./pages/payment-result/PaymentResultPage'),
                (m) => m.CanceledSubscriptionPage,
              ),
              screen(
                'notifications',
                () => import('./pages/notifications/NotificationsPage'),
                (m) => m.NotificationsPage,
              ),
            ],
          },
          screen(
            '*',
            () => import('./pages/not-found/NotFoundPage'),
            (m) => m.NotFoundPage,
          ),
        ],
      },
    ],
  },
];
