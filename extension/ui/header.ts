// The extension pages' header: the Pinboard mark, and a link to the options.
import { browser } from '../lib/browser.ts';
import { h } from '../lib/dom.ts';

export function pinMark(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 32 32');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'mark');
  const circle = document.createElementNS(ns, 'circle');
  circle.setAttribute('cx', '16');
  circle.setAttribute('cy', '16');
  circle.setAttribute('r', '16');
  circle.setAttribute('fill', '#c8102e');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M16 7a6 6 0 0 0-2.2 11.6L12.5 26h1.9l1.4-6.1A6 6 0 1 0 16 7z');
  path.setAttribute('fill', '#fff');
  svg.append(circle, path);
  return svg;
}

export function header(options = true): HTMLElement {
  return h(
    'header',
    { class: 'header' },
    pinMark(),
    h('span', { class: 'header__name' }, 'Pinboard'),
    options ? h('button', { type: 'button', class: 'link-button', onclick: () => void browser.runtime.openOptionsPage() }, 'Options') : null,
  );
}
