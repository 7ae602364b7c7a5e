import { atom } from 'jotai';
import type { SiteSettings } from '../../contract/invites.ts';

/**
 * How the site is run (docs/site-access.md), as the session check says: members only or public,
 * and who may sign up. Until it has said, the public site's defaults, as a server that does not
 * send it (an older one) is run.
 */
export const siteAtom = atom<SiteSettings>({ visibility: 'public', signups: 'open' });
