import type { LoginThrottle } from './auth/login-throttle.ts';
import type { MediaStorage } from './images/storage.ts';

// The features' part of what every route handler gets (backend/http/route.ts: RouteDeps holds the
// request machinery's part). Declared here, in the assembly, so that the HTTP layer imports no
// feature; app.ts builds the whole of it.
declare module './http/route.ts' {
  interface RouteDeps {
    throttle: LoginThrottle;
    /** The demo account's email when POST /api/auth/demo is switched on, else undefined. */
    demoEmail: string | undefined;
    /** Where stored images are kept (backend/images/storage.ts). */
    media: MediaStorage;
    /** Where the entries of an imported ZIP wait for their items (IMPORT_DIR). */
    importFiles: string;
    /** Personal access tokens' caches (backend/tokens/token-verifier.ts): a revoke must reach them all. */
    tokens: { revoked(secretHash: string): Promise<void> };
  }
}
