import { accountRoutes } from './account/account.routes.ts';
import { passwordResetRoutes } from './account/password-reset.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { boardLinkRoutes } from './boards/board-links.routes.ts';
import { boardRoutes } from './boards/boards.routes.ts';
import { changeRoutes } from './changes/changes.routes.ts';
import { commentRoutes } from './comments/comments.routes.ts';
import { favoriteRoutes } from './favorites/favorites.routes.ts';
import type { ApiRoute } from './http/route.ts';
import { exportRoutes } from './export/export.routes.ts';
import { checkRoutes } from './uploads/check.routes.ts';
import { uploadRoutes } from './uploads/uploads.routes.ts';
import { importRoutes } from './imports/imports.routes.ts';
import { pinLookupRoutes } from './pins/pin-lookup.routes.ts';
import { pinRoutes } from './pins/pins.routes.ts';
import { tokenRoutes } from './tokens/tokens.routes.ts';
import { blockRoutes } from './boards/blocks.routes.ts';
import { searchRoutes } from './search/search.routes.ts';
import { userSearchRoutes } from './users/user-search.routes.ts';
import { userRoutes } from './users/users.routes.ts';
import { inviteRoutes } from './invites/invites.routes.ts';
import { pageRoutes } from './pages/pages.routes.ts';
import { duplicateRoutes } from './duplicates/duplicates.routes.ts';

/** Every API route: the router mounts them, the OpenAPI document lists them, the tests walk them. */
export const API_ROUTES: readonly ApiRoute[] = [
  ...authRoutes,
  ...pinLookupRoutes,
  ...pinRoutes,
  ...duplicateRoutes,
  ...searchRoutes,
  ...boardRoutes,
  ...favoriteRoutes,
  ...commentRoutes,
  ...uploadRoutes,
  ...checkRoutes,
  ...userSearchRoutes,
  ...userRoutes,
  ...blockRoutes,
  ...changeRoutes,
  ...tokenRoutes,
  ...importRoutes,
  ...exportRoutes,
  ...boardLinkRoutes,
  ...passwordResetRoutes,
  ...accountRoutes,
  ...inviteRoutes,
  ...pageRoutes,
];
