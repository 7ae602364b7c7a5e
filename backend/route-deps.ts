import type { AccountSettings } from './account/account-settings.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import type { BulkImportSettings } from './imports/create-import.ts';
import type { MediaStorage } from './images/storage.ts';
import type { SiteSettings } from '../contract/invites.ts';

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
    /** Bulk imports: where a ZIP waits for its items (IMPORT_DIR), what one user may have open. */
    bulkImports: BulkImportSettings;
    /** Personal access tokens' caches (backend/tokens/token-verifier.ts): a revoke must reach them all. */
    tokens: { revoked(secretHash: string): Promise<void> };
    /** How the site is run (SITE_VISIBILITY, SIGNUPS: docs/site-access.md). */
    site: SiteSettings;
    /** Password resets: the mailer (when SMTP_URL is set) and the per-email limit. */
    accounts: AccountSettings;
  }
}
