import { useState } from 'react';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { BrokenImageIcon } from './Icons.tsx';

type Props = {
  src: string;
  alt: string;
  className?: string;
  eager?: boolean;
  /**
   * Width / height of a fixed box that the image fills (object-fit: cover) in every state, so the
   * element keeps its size while the image loads or fails (grid cards). Without it the image takes
   * its own height once loaded.
   */
  aspect?: number;
};

/**
 * A lazily loaded image with a tinted placeholder while it loads and a tidy fallback when the URL
 * is broken. Keyed by `src` so a new URL starts over.
 */
export function PinImage(props: Props) {
  return <PinImageInner key={props.src} {...props} />;
}

function PinImageInner({ src, alt, className, eager, aspect }: Props) {
  // Never request an address that could act (an API path of this site): the server refuses such
  // pins, and this keeps any that were stored before that rule harmless too.
  const [state, setState] = useState<'loading' | 'loaded' | 'error'>(() => (isAllowedImageUrl(src, [window.location.host]) ? 'loading' : 'error'));

  const boxed = aspect === undefined ? '' : ' pin-image--boxed';
  const style = aspect === undefined ? undefined : { aspectRatio: String(aspect) };
  if (state === 'error') {
    return (
      <div className={`pin-image pin-image--fallback${boxed} ${className ?? ''}`} style={style} role="img" aria-label={alt}>
        <BrokenImageIcon />
        <span aria-hidden="true">Image unavailable</span>
      </div>
    );
  }
  return (
    <div className={`pin-image pin-image--${state}${boxed} ${className ?? ''}`} style={style}>
      <img
        src={src}
        alt={alt}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        ref={(img) => {
          // A cached image may have finished before React attached its listeners.
          if (img?.complete && state === 'loading') setState(img.naturalWidth > 0 ? 'loaded' : 'error');
        }}
        onLoad={() => setState('loaded')}
        onError={() => setState('error')}
      />
    </div>
  );
}
