// jsdom lays nothing out: every element is 0×0 and there is no ResizeObserver. The pin grids
// (masonic) need both, so the component tests get a minimal stand-in: a grid is `width` pixels wide
// and each of its cells `cardHeight` pixels tall (0 by default: then every cell of a small list is
// mounted; a test of virtualization sets a height).
const layout = { width: 992, cardHeight: 0 };

export function setTestLayout(next: Partial<typeof layout>): void {
  Object.assign(layout, next);
}

let installed = false;

export function installLayoutShim(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  if (typeof globalThis.ResizeObserver !== 'function') {
    globalThis.ResizeObserver = class {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    };
  }
  const clientWidth = Object.getOwnPropertyDescriptor(Element.prototype, 'clientWidth');
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('masonry') ? layout.width : ((clientWidth?.get?.call(this) as number | undefined) ?? 0);
    },
  });
  const offsetHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight');
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      if (this.getAttribute('role') === 'listitem' && this.parentElement?.classList.contains('masonry__items')) return layout.cardHeight;
      return (offsetHeight?.get?.call(this) as number | undefined) ?? 0;
    },
  });
}
