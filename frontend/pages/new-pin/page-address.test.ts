import { describe, expect, it } from 'vitest';
import { pageAddress } from './page-address.ts';

describe('pageAddress', () => {
  it('gives an address without a scheme https://, and leaves the rest for the server to judge', () => {
    expect(pageAddress('  example.com/page ')).toBe('https://example.com/page');
    expect(pageAddress('example.com:8080/a')).toBe('https://example.com:8080/a');
    expect(pageAddress('http://example.com/a')).toBe('http://example.com/a');
    expect(pageAddress('javascript:alert(1)')).toBe('javascript:alert(1)');
    expect(pageAddress('   ')).toBe('');
  });
});
