import { describe, expect, it } from 'vitest';
import { PIN_PAGE_PATH } from '../../../contract/home.ts';
import { staticShellHtml } from './skeleton.ts';

describe('the static shell', () => {
  it('holds the grid skeleton and the pin skeleton (grid.css shows one), and no script', () => {
    const html = staticShellHtml();
    expect(html).toContain('class="skeleton-grid shell-page--grid"');
    expect(html).toContain('class="pin-detail-page shell-page--pin"');
    expect(html).toContain('data-testid="pin-skeleton"');
    expect(html).not.toContain('<script');
  });

  it('takes a pin’s address for a pin, and nothing else', () => {
    for (const path of ['/pins/42', '/pins/42/']) expect(PIN_PAGE_PATH.test(path), path).toBe(true);
    for (const path of ['/', '/pins', '/pins/new', '/pins/42/edit', '/boards/42']) expect(PIN_PAGE_PATH.test(path), path).toBe(false);
  });
});
