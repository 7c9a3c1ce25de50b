import { describe, expect, it } from 'vitest';
import { renderMarkdownBlocks } from './markdown';

const render = (markdown: string) => renderMarkdownBlocks(markdown).join('');

describe('renderMarkdownBlocks', () => {
  it('renders markdown as one HTML string per block', () => {
    const blocks = renderMarkdownBlocks('# Title\n\nSome **bold** text\n\n- a\n- b');
    expect(blocks).toHaveLength(3);
    expect(blocks[1]).toContain('<strong>bold</strong>');
  });

  it('removes scripts, event handlers and javascript: links', () => {
    const html = render('<script>alert(1)</script><img src="x" onerror="alert(1)">\n\n[click](javascript:alert(1))');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('javascript:');
  });

  it('opens links in a new window without an opener', () => {
    const html = render('[docs](https://example.org/page)');
    expect(html).toContain('href="https://example.org/page"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });

  it('highlights code blocks of a known language and escapes unknown ones', () => {
    expect(render('```js\nconst a = 1;\n```')).toContain('<span class="hljs-keyword">const</span>');
    const plain = render('```\n<b>not bold</b>\n```');
    expect(plain).toContain('&lt;b&gt;not bold&lt;/b&gt;');
  });
});
