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

  it('keeps the inline style that places and colours text, and drops what would lay a box over the app', () => {
    const overlay = sanitizeHtml(
      '<div style="position: fixed; inset: 0; z-index: 9999; background: white url(https://beacon.example/b.png)">Session expired, sign in <a href="https://phish.example/">here</a></div>',
    );
    // What stays (top, left, a colour) does nothing to a box in the page's flow.
    expect(overlay).not.toMatch(/position|fixed|z-index|beacon|url\(/);
    expect(overlay).toContain('Session expired');
    expect(sanitizeHtml('<span style="color: red; position: absolute; transform: scale(50); height: 1.2em">x</span>')).toBe(
      '<span style="color: red; height: 1.2em">x</span>',
    );
    // What KaTeX writes stays: a shift within the text, rules, margins.
    expect(sanitizeHtml('<span style="position: relative; top: -0.5em; margin-right: 0.1em; border-bottom-width: 0.04em">x</span>')).toBe(
      '<span style="position: relative; top: -0.5em; margin-right: 0.1em; border-bottom-width: 0.04em">x</span>',
    );
  });
});
