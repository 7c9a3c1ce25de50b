import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitizeHtml';

describe('sanitizeHtml', () => {
  it('drops audio and video, which the CSP would let load from any https origin', () => {
    const html = sanitizeHtml(
      '<p>Hi</p><video src="https://beacon.example/v?d=1"><source src="https://beacon.example/s"></video><audio src="https://beacon.example/a"></audio>',
    );
    expect(html).toBe('<p>Hi</p>');
  });

  it('keeps links, opening in a new window without an opener', () => {
    expect(sanitizeHtml('<a href="https://docs.example/">Docs</a>')).toBe(
      '<a href="https://docs.example/" target="_blank" rel="noopener noreferrer nofollow">Docs</a>',
    );
  });

  it('lets the keyboard reach code blocks and tables, which scroll sideways when wide', () => {
    expect(sanitizeHtml('<pre><code>x</code></pre><table><tr><td>1</td></tr></table><p>text</p>')).toBe(
      '<pre tabindex="0"><code>x</code></pre><table tabindex="0"><tbody><tr><td>1</td></tr></tbody></table><p>text</p>',
    );
  });
});
