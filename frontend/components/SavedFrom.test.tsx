import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SavedFrom } from './SavedFrom.tsx';

describe('"Saved from {host}" on a pin', () => {
  it('links the source page, marked as user content', () => {
    render(<SavedFrom sourceUrl="https://www.example.com/barns?ref=feed" />);
    expect(screen.getByText(/Saved from/).textContent).toBe('Saved from example.com');
    const link = screen.getByRole('link', { name: 'example.com' });
    expect(link.getAttribute('href')).toBe('https://www.example.com/barns?ref=feed');
    expect(link.getAttribute('rel')).toBe('nofollow noopener ugc');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('shows nothing for no source, or for an address that is not an http(s) page', () => {
    for (const sourceUrl of [null, undefined, '', 'javascript:alert(1)', 'data:text/html,x', '/relative']) {
      const { container, unmount } = render(<SavedFrom sourceUrl={sourceUrl} />);
      expect(container.innerHTML, String(sourceUrl)).toBe('');
      unmount();
    }
  });
});
