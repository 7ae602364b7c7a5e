import { ShareIcon } from './Icons.tsx';

const SHARE_COPIED = 'Pin link copied to clipboard!';
const SHARE_FAILED = 'Failed to copy link.';

/** docs/product.md §8: the device share feature when present, else copy the link and say so. */
async function sharePin(title: string, url: string): Promise<void> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) console.error(error);
    }
    return;
  }
  try {
    await navigator.clipboard.writeText(url);
    window.alert(SHARE_COPIED);
  } catch {
    window.alert(SHARE_FAILED);
  }
}

export function ShareButton({ title, url }: { title: string; url: string }) {
  return (
    <button type="button" className="icon-button icon-button--outline" aria-label="Share" title="Share" onClick={() => void sharePin(title, url)}>
      <ShareIcon />
    </button>
  );
}
