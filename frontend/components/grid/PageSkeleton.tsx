import { PIN_PAGE_PATH } from '../../../contract/home.ts';
import { navFrameHtml, pinSkeletonHtml } from './skeleton.ts';
import { SkeletonGrid } from './SkeletonGrid.tsx';

/**
 * The pin page while its pin loads: the same image box and row of actions as the static shell draws
 * for a pin's link (./skeleton.ts), so a shared link goes from skeleton to pin with nothing between.
 */
export function PinSkeleton() {
  return <div className="pin-detail-page" dangerouslySetInnerHTML={{ __html: pinSkeletonHtml() }} />;
}

/** The skeleton of the page at this address: the pin page's for a pin, else the grid's. */
export function PageSkeleton({ text = 'Loading…' }: { text?: string }) {
  return PIN_PAGE_PATH.test(window.location.pathname) ? <PinSkeleton /> : <SkeletonGrid text={text} />;
}

/**
 * What a first visit shows while its route's code loads (the root's hydrate fallback): the static
 * shell's very layout — the bar's frame, the page, the skeleton of the address — so nothing moves
 * between the shell, this, and the page.
 */
export function ShellFallback() {
  return (
    <>
      <header className="nav" dangerouslySetInnerHTML={{ __html: navFrameHtml() }} />
      <main id="main" className="page">
        <PageSkeleton />
      </main>
    </>
  );
}
