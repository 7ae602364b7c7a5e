// Reading a page's pictures for "From a website" (GET /api/pages/images, docs/page-images.md): one
// search at a time (a newer one makes an older answer stale), its failure in the server's words, and
// a search that failed for want of a network run again when the connection returns.
import { useStore } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PageImages } from '../../../contract/pages.ts';
import { isApiError } from '../../api/client.ts';
import { fetchPageImages } from '../../api/pages.ts';
import { browserOffline, retryWhenBack } from '../../state/connection-return.ts';
import { LOAD_FAILED_TEXT } from '../../state/load-failure.ts';
import { pageAddress } from './page-address.ts';

export const OFFLINE_SEARCH = "You're offline — the pictures will be looked for when you're back.";

export type WebsiteSearch = { phase: 'idle' } | { phase: 'loading'; address: string } | { phase: 'failed'; address: string; message: string; offline: boolean } | { phase: 'found'; page: PageImages };

/** The words for a refused search: the server's for the address, else its message. */
export function searchFailure(error: unknown): { message: string; offline: boolean } {
  if (browserOffline()) return { message: OFFLINE_SEARCH, offline: true };
  if (!isApiError(error)) return { message: LOAD_FAILED_TEXT, offline: false };
  return { message: error.body.fields.url || error.body.message || error.message, offline: false };
}

export function useWebsitePictures(): { state: WebsiteSearch; find: (typed: string) => void } {
  const store = useStore();
  const [state, setState] = useState<WebsiteSearch>({ phase: 'idle' });
  const latest = useRef(0);

  const find = useCallback((typed: string) => {
    const address = pageAddress(typed);
    const search = ++latest.current;
    setState({ phase: 'loading', address });
    fetchPageImages(address).then(
      (page) => {
        if (search === latest.current) setState({ phase: 'found', page: { ...page, images: Array.isArray(page.images) ? page.images : [] } });
      },
      (error: unknown) => {
        if (search !== latest.current) return;
        if (!isApiError(error) || error.status >= 500 || error.status === 0) console.error(error);
        setState({ phase: 'failed', address, ...searchFailure(error) });
      },
    );
  }, []);

  const offlineAddress = state.phase === 'failed' && state.offline ? state.address : null;
  useEffect(() => {
    if (offlineAddress === null) return;
    const token = {};
    return retryWhenBack(store, token, () => find(offlineAddress));
  }, [offlineAddress, store, find]);

  return { state, find };
}
