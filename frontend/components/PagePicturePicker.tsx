import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { LIMITS } from '../../contract/limits.ts';
import type { PageImage } from '../../contract/pages.ts';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { fetchPageImages } from '../api/pages.ts';
import './pin-form.css';

type Found = { phase: 'loading' } | { phase: 'done'; images: readonly PageImage[] };

/** Placeholders shown while the page is read. */
const LOADING_TILES = 3;

/** The pictures to offer: `media` first, then the page's, each address once, only those a pin may carry. */
export function picturesToOffer(media: string, found: readonly PageImage[]): PageImage[] {
  const seen = new Set<string>();
  const offer: PageImage[] = [];
  const byUrl = new Map(found.map((image) => [image.url, image]));
  for (const image of [...(media ? [byUrl.get(media) ?? { url: media }] : []), ...found]) {
    if (seen.has(image.url) || image.url.length > LIMITS.imageUrl || !isAllowedImageUrl(image.url, [window.location.host])) continue;
    seen.add(image.url);
    offer.push(image);
  }
  return offer;
}

/** The page's pictures, read once (a new page is a new picker: give it a key); a failure is an empty list. */
function usePagePictures(pageUrl: string): Found {
  const [found, setFound] = useState<Found>({ phase: 'loading' });
  useEffect(() => {
    let current = true;
    fetchPageImages(pageUrl).then(
      (answer) => current && setFound({ phase: 'done', images: Array.isArray(answer.images) ? answer.images : [] }),
      () => current && setFound({ phase: 'done', images: [] }),
    );
    return () => {
      current = false;
    };
  }, [pageUrl]);
  return found;
}

interface Props {
  /** The page the pin is saved from. */
  pageUrl: string;
  /** The picture the link named (the bookmarklet's pick), first and chosen at the start; '' for none. */
  media: string;
  /** The pin's image URL as the form holds it now. */
  selected: string;
  onChoose: (url: string) => void;
}

/**
 * The pin builder's choice of picture (docs/tokens-and-capture.md): thumbnails of the page's
 * pictures as GET /api/pages/images finds them, the link's own first. With nothing more than
 * `media` to offer it shows nothing.
 */
export function PagePicturePicker({ pageUrl, media, selected, onChoose }: Props) {
  const found = usePagePictures(pageUrl);
  const [broken, onBroken] = useBrokenPictures();
  const latest = useRef({ selected, onChoose });
  latest.current = { selected, onChoose };
  const all = picturesToOffer(media, found.phase === 'done' ? found.images : []);
  const pictures = all.filter((picture) => !broken.has(picture.url) || picture.url === selected);
  const first = pictures[0]?.url;

  // A link without a picture of its own: the page's best one is chosen, unless an address was typed meanwhile.
  useEffect(() => {
    if (found.phase === 'done' && !media && first && !latest.current.selected.trim()) latest.current.onChoose(first);
  }, [found.phase, media, first]);

  const loading = found.phase === 'loading';
  if (!loading && pictures.length <= 1) return null;
  return <PagePictureChoices pictures={pictures} loading={loading} selected={selected} onChoose={onChoose} onBroken={onBroken} />;
}

/** The pictures the browser could not show (left out of the choice unless chosen), and how to add one. */
export function useBrokenPictures(): [ReadonlySet<string>, (url: string) => void] {
  const [broken, setBroken] = useState<ReadonlySet<string>>(new Set());
  const add = useCallback((url: string) => setBroken((set) => new Set(set).add(url)), []);
  return [broken, add];
}

interface ChoicesProps {
  /** The pictures to offer, best first (picturesToOffer), less those the browser could not show. */
  pictures: readonly PageImage[];
  /** The page is still being read: placeholders follow the pictures. */
  loading: boolean;
  selected: string;
  onChoose: (url: string) => void;
  /** A picture the browser could not show (useBrokenPictures). */
  onBroken: (url: string) => void;
}

/**
 * The page's pictures as a group of radio buttons (the arrow keys move the choice), each a
 * thumbnail. Used by the pin builder and by New Pin's "From a website".
 */
export function PagePictureChoices({ pictures, loading, selected, onChoose, onBroken }: ChoicesProps) {
  const name = useId();
  return (
    <fieldset className="page-pictures" aria-busy={loading}>
      <legend className="field__label">Pictures on this page{loading ? '' : ` (${pictures.length})`}</legend>
      <div className="page-pictures__grid">
        {pictures.map((picture, index) => {
          const label = `${picture.alt?.trim() || `Picture ${index + 1}`}${picture.width && picture.height ? `, ${picture.width} by ${picture.height}` : ''}`;
          return (
            <label key={picture.url} className="page-pictures__item" title={picture.alt || undefined}>
              <input type="radio" className="visually-hidden" name={name} value={picture.url} checked={picture.url === selected.trim()} onChange={() => onChoose(picture.url)} aria-label={label} />
              <img src={picture.url} alt="" loading="lazy" decoding="async" referrerPolicy="no-referrer" onError={() => onBroken(picture.url)} />
              {picture.width && picture.height ? (
                <span className="page-pictures__size" aria-hidden="true">
                  {picture.width}×{picture.height}
                </span>
              ) : null}
            </label>
          );
        })}
        {loading ? Array.from({ length: LOADING_TILES }, (_, i) => <span key={i} className="page-pictures__item page-pictures__item--loading" aria-hidden="true" />) : null}
      </div>
      <p className="field__hint" role="status">
        {loading ? 'Looking for more pictures on the page…' : ''}
      </p>
    </fieldset>
  );
}
