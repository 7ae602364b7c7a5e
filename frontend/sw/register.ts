/**
 * Registers the service worker (docs/installable-app.md) in a build only (`vite build`'s mode,
 * whatever NODE_ENV the build ran under: the e2e setup builds under "test"): the dev server has no
 * /sw.js, and a worker there would serve stale modules; jsdom has no workers.
 */
export function registerServiceWorker(): void {
  if (import.meta.env.MODE !== 'production' || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => console.warn('service worker not registered', error));
  };
  // After the page has loaded: the worker's install fetches every file of the build.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
