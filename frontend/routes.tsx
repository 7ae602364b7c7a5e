import type { ComponentType, ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { ErrorPage, NotFound } from './components/ErrorPage.tsx';
import { GuestOnly, RequireAuth } from './components/Guards.tsx';
import { MembersOnlyGate } from './components/MembersOnlyGate.tsx';
import { Layout } from './shell/Layout.tsx';
import { ShellFallback } from './components/grid/PageSkeleton.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { loadPageCode } from './components/page-code.ts';

const signedIn = (page: ReactNode) => <RequireAuth>{page}</RequireAuth>;
const guest = (page: ReactNode) => <GuestOnly>{page}</GuestOnly>;

// Only the layout and the home page are in the first script; every other page is its own chunk,
// fetched when a route first needs it (docs/footprint.md). The router loads it before it leaves the
// current page, so a navigation never shows an empty page; a first visit straight to such a page
// shows the layout's skeleton (the root's hydrate fallback) meanwhile. A new page: add its route
// with page(() => import(...)), not a static import. A chunk that cannot be fetched (offline, or
// gone after a new version) shows "You're offline" or reloads once, in the layout, with its bar
// (components/page-code.ts, docs/installable-app.md); each page has its own error element.
const page = (load: () => Promise<ComponentType>, wrap: (page: ReactNode) => ReactNode = (p) => p): Pick<RouteObject, 'lazy' | 'errorElement'> => ({
  errorElement: <ErrorPage />,
  lazy: () => loadPageCode(load, (Page) => wrap(<Page />)),
});

/** Every route of docs/product.md §2 under the one layout. A page error keeps the navigation bar. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <ShellFallback />,
    children: [
      {
        errorElement: <ErrorPage />,
        // A members-only site shows visitors the log-in page instead (docs/site-access.md).
        element: <MembersOnlyGate />,
        children: [
          { index: true, element: <HomePage />, errorElement: <ErrorPage /> },
          { path: 'login', ...page(() => import('./pages/LoginPage.tsx').then((m) => m.LoginPage), guest) },
          { path: 'signup', ...page(() => import('./pages/SignupPage.tsx').then((m) => m.SignupPage), guest) },
          { path: 'forgot-password', ...page(() => import('./pages/password-reset/ForgotPasswordPage.tsx').then((m) => m.ForgotPasswordPage), guest) },
          // Public: a signed-in visitor may follow a mailed link too (it signs every session out).
          { path: 'reset-password', ...page(() => import('./pages/password-reset/ResetPasswordPage.tsx').then((m) => m.ResetPasswordPage)) },
          { path: 'settings', ...page(() => import('./pages/settings/SettingsPage.tsx').then((m) => m.SettingsPage), signedIn) },
          { path: 'favorites', ...page(() => import('./pages/FavoritesPage.tsx').then((m) => m.FavoritesPage), signedIn) },
          { path: 'boards', ...page(() => import('./pages/BoardsPage.tsx').then((m) => m.BoardsPage), signedIn) },
          { path: 'boards/create', ...page(() => import('./pages/CreateBoardPage.tsx').then((m) => m.CreateBoardPage), signedIn) },
          // Public boards open signed out too; the page sends a visitor to log in for any other.
          { path: 'boards/:boardId', ...page(() => import('./pages/BoardDetailPage.tsx').then((m) => m.BoardDetailPage)) },
          { path: 'boards/:boardId/manage-pins', ...page(() => import('./pages/ManagePinsPage.tsx').then((m) => m.ManagePinsPage), signedIn) },
          { path: 'connect', ...page(() => import('./pages/ConnectPage.tsx').then((m) => m.ConnectPage), signedIn) },
          { path: 'pins', ...page(() => import('./pages/YourPinsPage.tsx').then((m) => m.YourPinsPage), signedIn) },
          { path: 'pins/new', ...page(() => import('./pages/NewPinPage.tsx').then((m) => m.NewPinPage), signedIn) },
          { path: 'pins/:id', ...page(() => import('./pages/PinDetailPage.tsx').then((m) => m.PinDetailPage)) },
          { path: 'pins/:id/edit', ...page(() => import('./pages/EditPinPage.tsx').then((m) => m.EditPinPage), signedIn) },
          { path: 'users/:username', ...page(() => import('./pages/UserPinsPage.tsx').then((m) => m.UserPinsPage)) },
          { path: 'invites', ...page(() => import('./pages/InvitesPage.tsx').then((m) => m.InvitesPage), signedIn) },
          { path: 'tokens', ...page(() => import('./pages/TokensPage.tsx').then((m) => m.TokensPage), signedIn) },
          { path: 'duplicates', ...page(() => import('./pages/duplicates/DuplicatesPage.tsx').then((m) => m.DuplicatesPage), signedIn) },
          { path: 'import-export', ...page(() => import('./imports/ImportExportPage.tsx').then((m) => m.ImportExportPage), signedIn) },
          { path: 'pin-builder', ...page(() => import('./pages/PinBuilderPage.tsx').then((m) => m.PinBuilderPage), signedIn) },
          { path: 'search', ...page(() => import('./search/SearchPage.tsx').then((m) => m.SearchPage)) },
          { path: 'tags/:tag', ...page(() => import('./search/TagPage.tsx').then((m) => m.TagPage)) },
          { path: 'b/:secret', ...page(() => import('./pages/LinkedBoardPage.tsx').then((m) => m.LinkedBoardPage)) },
          { path: '*', element: <NotFound />, errorElement: <ErrorPage /> },
        ],
      },
    ],
  },
];
