import { useStore } from 'jotai';
import { useEffect, useState } from 'react';
import type { PinImage as StoredImage } from '../../contract/images.ts';
import { thumbnailSrcSet } from '../../contract/thumbnails.ts';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { retryWhenBack } from '../state/connection-return.ts';
import { BrokenImageIcon } from './Icons.tsx';
import { placeholderDataUrl } from './image-sources.ts';

type Props = {
  /** The pin's image address (`image_url`): what is shown when the pin has no stored image. */
  src: string;
  /**
   * The stored image (docs/images.md), when there is one: its thumbnails are shown instead of `src`,
   * its box is reserved from its width and height before anything loads, and its placeholder is
   * shown until the thumbnail has loaded.
   */
  image?: StoredImage | null | undefined;
  /**
   * The width the image is shown at, as a `sizes` value (a grid's column width): the browser then
   * picks the 236 or 736 px thumbnail from a `srcset`. Without it, the 736 px thumbnail.
   */
  sizes?: string | undefined;
  alt: string;
  className?: string;
  eager?: boolean;
  /**
   * Width / height of a fixed box that the image fills (object-fit: cover) in every state, so the
   * element keeps its size while the image loads or fails (grid cards). Without it the image takes
   * its own height once loaded, or, for a stored image, its own shape from the start.
   */
  aspect?: number;
  /** With `aspect`: show the whole image inside the box (letterboxed) instead of filling it. */
  whole?: boolean;
  /** Told when the image could not be shown (the New Pin page warns before saving such a URL). */
  onFailed?: () => void;
};

/**
 * A lazily loaded image with a placeholder while it loads (the stored image's thumbhash, or a
 * tinted shimmer) and a tidy fallback when the image is broken. Keyed by what it shows, so a new
 * image (a pin whose import finished, say) starts over. An image that failed to load is asked for
 * again when the connection returns (docs/images.md: it may have failed only because the network
 * was down); one that fails again keeps its fallback until the next return.
 */
export function PinImage(props: Props) {
  return <PinImageInner key={`${props.src} ${props.image?.thumbnails['236'] ?? ''}`} {...props} />;
}

/** What the <img> is given: one address, or thumbnails with a srcset. */
function sourcesOf({ src, image, sizes }: Props): { src: string; srcSet?: string; sizes?: string } {
  if (!image) return { src };
  if (sizes === undefined) return { src: image.thumbnails['736'] };
  return { src: image.thumbnails['236'], srcSet: thumbnailSrcSet(image), sizes };
}

function PinImageInner(props: Props) {
  const { alt, className, eager, image } = props;
  const sources = sourcesOf(props);
  // Never request an address that could act (an API path of this site): the server refuses such
  // pins, and this keeps any that were stored before that rule harmless too.
  // `failed`: the browser could not load it (retried when back); `refused`: never requested.
  const [state, setState] = useState<'loading' | 'loaded' | 'failed' | 'refused'>(() => {
    const own = [window.location.host];
    const usable = isAllowedImageUrl(sources.src, own) && (!image || isAllowedImageUrl(image.thumbnails['736'], own));
    return usable ? 'loading' : 'refused';
  });
  const store = useStore();
  useEffect(() => {
    if (state !== 'failed') return;
    const token = {};
    return retryWhenBack(store, token, () => setState('loading'), 'image');
  }, [state, store]);

  // A stored image's box is known before anything loads: its own shape, unless the caller fixes one.
  const aspect = props.aspect ?? (image ? image.width / image.height : undefined);
  const boxed = aspect === undefined ? '' : props.whole ? ' pin-image--boxed pin-image--whole' : ' pin-image--boxed';
  const style = aspect === undefined ? undefined : { aspectRatio: String(aspect) };
  if (state === 'failed' || state === 'refused') {
    return (
      <div className={`pin-image pin-image--fallback${boxed} ${className ?? ''}`} style={style} role="img" aria-label={alt} data-image-state={state}>
        <BrokenImageIcon />
        <span aria-hidden="true">Image unavailable</span>
      </div>
    );
  }
  const placeholder = image ? placeholderDataUrl(image.placeholder) : null;
  return (
    <div className={`pin-image pin-image--${state}${boxed}${placeholder ? ' pin-image--placeholder' : ''} ${className ?? ''}`} style={style}>
      {placeholder ? <div className="pin-image__placeholder" style={{ backgroundImage: `url("${placeholder}")` }} aria-hidden="true" data-testid="image-placeholder" /> : null}
      <img
        alt={alt}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        // The image's own size, so the browser knows its shape even before the CSS applies.
        width={image?.width}
        height={image?.height}
        sizes={sources.sizes}
        srcSet={sources.srcSet}
        src={sources.src}
        ref={(img) => {
          // A cached image may have finished before React attached its listeners.
          if (img?.complete && state === 'loading') {
            setState(img.naturalWidth > 0 ? 'loaded' : 'failed');
            if (img.naturalWidth === 0) props.onFailed?.();
          }
        }}
        onLoad={() => setState('loaded')}
        onError={() => {
          setState('failed');
          props.onFailed?.();
        }}
      />
    </div>
  );
}
