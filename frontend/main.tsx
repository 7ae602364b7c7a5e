import { Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { startLiveUpdates } from './live/socket.ts';
import { routes } from './routes.tsx';
import { store } from './state/store.ts';
import { followNavigation } from './state/toasts.ts';
import { registerServiceWorker } from './sw/register.ts';
import './styles/app.css';
import './styles/grid.css';
import './styles/forms.css';
import './styles/pin-page.css';
import './styles/boards.css';
import './styles/overlays.css';

const router = createBrowserRouter(routes);
followNavigation(store, router); // a new page drops the old page's plain toasts
// Live updates (docs/realtime.md): the socket opens once the layout's session check has finished.
startLiveUpdates(store);
// Offline use, the share target and installing (docs/installable-app.md); production builds only.
registerServiceWorker();
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
