// A pin made from a picture's address (the pin builder's picture of a page, a shared picture
// uploaded first, a typed URL) warns before saving as an upload does (docs/duplicates.md): the
// address is checked with GET /api/images/duplicates, which stores nothing.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DuplicatePin } from '../../../contract/duplicates.ts';
import { isAllowedImageUrl } from '../../../contract/urls.ts';
import { checkPicture } from '../../api/duplicates.ts';

/** A typed address is checked once typing pauses this long. */
const SETTLE_MS = 400;
/** Answers kept per page: a user going back and forth between a page's pictures asks once each. */
const KEPT = 20;

export interface PictureCheck {
  /** The reader's pins of the picture at the address given, once its check has answered. */
  duplicates: DuplicatePin[];
  /** The check of `url` (the same one when it ran already); an address that cannot be checked, or a failed check, has none. */
  check: (url: string) => Promise<DuplicatePin[]>;
}

export function usePictureCheck(url: string): PictureCheck {
  const asked = useRef(new Map<string, Promise<DuplicatePin[]>>());
  const [answer, setAnswer] = useState<{ url: string; duplicates: DuplicatePin[] } | null>(null);

  const check = useCallback((address: string): Promise<DuplicatePin[]> => {
    if (!address || !isAllowedImageUrl(address, [window.location.host])) return Promise.resolve([]);
    const known = asked.current.get(address);
    if (known) return known;
    // A failed check warns of nothing: the save goes on, as it would have without the check.
    const promise = checkPicture(address).then(
      (checked) => checked.duplicates,
      (error: unknown) => {
        console.error(error); // docs/product.md §8: failures are logged
        asked.current.delete(address);
        return [];
      },
    );
    if (asked.current.size >= KEPT) asked.current.delete(asked.current.keys().next().value ?? '');
    asked.current.set(address, promise);
    return promise;
  }, []);

  useEffect(() => {
    if (!url) return;
    let live = true;
    const timer = setTimeout(() => {
      void check(url).then((duplicates) => live && setAnswer({ url, duplicates }));
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [url, check]);

  return { duplicates: answer && answer.url === url ? answer.duplicates : [], check };
}
