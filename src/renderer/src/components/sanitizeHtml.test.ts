import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitizeHtml';

describe('sanitizeHtml', () => {
  it('drops audio and video, which the CSP would let load from any https origin', () => {
    const html = sanitizeHtml('<p>Hi</p><video src="https://beacon.example/v?d=1"><source src="https://beacon.example/s"></video><audio src="https://beacon.example/a"></audio>');
    expect(html).toBe('<p>Hi</p>');
  });

  it('keeps links, opening in a new window without an opener', () => {
    expect(sanitizeHtml('<a href="https://docs.example/">Docs</a>')).toBe('<a href="https://docs.example/" target="_blank" rel="noopener noreferrer nofollow">Docs</a>');
  });
});
