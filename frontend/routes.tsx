import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { ErrorPage, NotFound } from './components/ErrorPage.tsx';
import { GuestOnly, RequireAuth } from './components/Guards.tsx';
import { Layout } from './components/Layout.tsx';
import { BoardDetailPage } from './pages/BoardDetailPage.tsx';
import { BoardsPage } from './pages/BoardsPage.tsx';
import { ConnectPage } from './pages/ConnectPage.tsx';
import { CreateBoardPage } from './pages/CreateBoardPage.tsx';
import { EditPinPage } from './pages/EditPinPage.tsx';
import { FavoritesPage } from './pages/FavoritesPage.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { ImportExportPage } from './imports/ImportExportPage.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { ManagePinsPage } from './pages/ManagePinsPage.tsx';
import { NewPinPage } from './pages/NewPinPage.tsx';
import { PinBuilderPage } from './pages/PinBuilderPage.tsx';
import { PinDetailPage } from './pages/PinDetailPage.tsx';
import { SignupPage } from './pages/SignupPage.tsx';
import { TokensPage } from './pages/TokensPage.tsx';
import { UserPinsPage } from './pages/UserPinsPage.tsx';
import { YourPinsPage } from './pages/YourPinsPage.tsx';
import { SearchPage } from './search/SearchPage.tsx';
import { TagPage } from './search/TagPage.tsx';

const signedIn = (page: ReactNode) => <RequireAuth>{page}</RequireAuth>;
const guest = (page: ReactNode) => <GuestOnly>{page}</GuestOnly>;

/** Every route of SPEC §2 under the one layout. A page error keeps the navigation bar. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    errorElement: <ErrorPage />,
    children: [
      {
        errorElement: <ErrorPage />,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'login', element: guest(<LoginPage />) },
          { path: 'signup', element: guest(<SignupPage />) },
          { path: 'favorites', element: signedIn(<FavoritesPage />) },
          { path: 'boards', element: signedIn(<BoardsPage />) },
          { path: 'boards/create', element: signedIn(<CreateBoardPage />) },
          { path: 'boards/:boardId', element: signedIn(<BoardDetailPage />) },
          { path: 'boards/:boardId/manage-pins', element: signedIn(<ManagePinsPage />) },
          { path: 'connect', element: signedIn(<ConnectPage />) },
          { path: 'pins', element: signedIn(<YourPinsPage />) },
          { path: 'pins/new', element: signedIn(<NewPinPage />) },
          { path: 'pins/:id', element: <PinDetailPage /> },
          { path: 'pins/:id/edit', element: signedIn(<EditPinPage />) },
          { path: 'users/:username', element: <UserPinsPage /> },
          { path: 'tokens', element: signedIn(<TokensPage />) },
          { path: 'import-export', element: signedIn(<ImportExportPage />) },
          { path: 'pin-builder', element: signedIn(<PinBuilderPage />) },
          { path: 'search', element: <SearchPage /> },
          { path: 'tags/:tag', element: <TagPage /> },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
];
