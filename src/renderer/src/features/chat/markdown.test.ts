import { describe, expect, it } from 'vitest';
import { renderMarkdownBlocks } from './markdown';
import { subscribeGrammars } from './highlight';

/** Resolves when the next code grammar has loaded. */
const nextGrammar = () =>
  new Promise<void>((resolve) => {
    const unsubscribe = subscribeGrammars(() => {
      unsubscribe();
      resolve();
    });
  });

const render = (markdown: string) => renderMarkdownBlocks(markdown).map((block) => block.html).join('');

describe('renderMarkdownBlocks', () => {
  it('gives code blocks their source for the copy button', () => {
    const blocks = renderMarkdownBlocks('Run this:\n\n    npm test');
    expect(blocks.map((block) => block.code)).toEqual([null, 'npm test']);
  });

  it('renders markdown as one HTML string per block', () => {
    const blocks = renderMarkdownBlocks('# Title\n\nSome **bold** text\n\n- a\n- b');
    expect(blocks).toHaveLength(3);
    expect(blocks[1]?.html).toContain('<strong>bold</strong>');
    expect(blocks.map((block) => block.code)).toEqual([null, null, null]);
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

  it('highlights code blocks of a known language once its grammar has loaded, and escapes unknown ones', async () => {
    const loaded = nextGrammar();
    // The first render starts loading the grammar and shows the code plain (escaped) meanwhile.
    expect(render('```js\nconst a = 1 < 2;\n```')).toContain('const a = 1 &lt; 2;');
    await loaded;
    expect(render('```js\nconst a = 1 < 2;\n```')).toContain('<span class="hljs-keyword">const</span>');
    // The grammar's own name finds it as well as the alias.
    expect(render('```javascript\nlet b;\n```')).toContain('<span class="hljs-keyword">let</span>');
    const plain = render('```\n<b>not bold</b>\n```');
    expect(plain).toContain('&lt;b&gt;not bold&lt;/b&gt;');
  });
});
