import { beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown, renderMarkdownBlocks, type RenderedMarkdown } from './markdown';
import { MAX_TEX_LENGTH } from './math';
import { subscribeOnDemand } from './onDemand';

const render = (markdown: string) =>
  renderMarkdownBlocks(markdown)
    .map((block) => block.html)
    .join('');

/** Resolves with the HTML of `markdown` once it contains `expected` (its grammar or KaTeX loaded on demand). */
const rendersWith = (markdown: string, expected: string) =>
  new Promise<string>((resolve) => {
    const check = () => {
      const html = render(markdown);
      if (!html.includes(expected)) return;
      unsubscribe();
      resolve(html);
    };
    const unsubscribe = subscribeOnDemand(check);
    check();
  });

/** The formulas KaTeX drew in `html`: the TeX of each, read back from its MathML. */
const formulaCount = (html: string) => html.split('class="katex"').length - 1;

describe('renderMarkdownBlocks', () => {
  it('gives code blocks their source for the copy button', () => {
    const blocks = renderMarkdownBlocks('Run this:\n\n    npm test');
    expect(blocks.map((block) => block.kind)).toEqual(['text', 'code']);
    expect(blocks[1]).toMatchObject({ source: 'npm test' });
  });

  it('renders markdown as one HTML string per block', () => {
    const blocks = renderMarkdownBlocks('# Title\n\nSome **bold** text\n\n- a\n- b');
    expect(blocks).toHaveLength(3);
    expect(blocks[1]?.html).toContain('<strong>bold</strong>');
    expect(blocks.map((block) => block.kind)).toEqual(['text', 'text', 'text']);
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
    // The first render starts loading the grammar and shows the code plain (escaped) meanwhile.
    expect(render('```js\nconst a = 1 < 2;\n```')).toContain('const a = 1 &lt; 2;');
    await rendersWith('```js\nconst a = 1 < 2;\n```', '<span class="hljs-keyword">const</span>');
    // The grammar's own name finds it as well as the alias.
    expect(render('```javascript\nlet b;\n```')).toContain('<span class="hljs-keyword">let</span>');
    const plain = render('```\n<b>not bold</b>\n```');
    expect(plain).toContain('&lt;b&gt;not bold&lt;/b&gt;');
  });

  it('makes a complete Mermaid block a diagram, but not while its fence is still open in a streaming answer', () => {
    const open = '```mermaid\nflowchart LR\n  A --> B';
    expect(renderMarkdownBlocks(open, { streaming: true })[0]).toMatchObject({ kind: 'code', source: 'flowchart LR\n  A --> B' });
    expect(renderMarkdownBlocks(`${open}\n\`\`\``, { streaming: true })[0]).toMatchObject({ kind: 'diagram', source: 'flowchart LR\n  A --> B' });
    // A finished answer whose model forgot the closing fence still gets its diagram.
    expect(renderMarkdownBlocks(open)[0]?.kind).toBe('diagram');
    // A longer closing fence closes it too; a ``` inside a ```` block does not.
    expect(renderMarkdownBlocks('````mermaid\nA\n```', { streaming: true })[0]?.kind).toBe('code');
    expect(renderMarkdownBlocks('````mermaid\nA\n`````\n', { streaming: true })[0]?.kind).toBe('diagram');
    // Its source is still shown as escaped code until it is drawn.
    expect(renderMarkdownBlocks('```mermaid\nA["<b>x</b>"]\n```')[0]?.html).toContain('A["&lt;b&gt;x&lt;/b&gt;"]');
  });
});

describe('formulas', () => {
  // KaTeX is loaded on demand by the first formula; these tests want it there.
  beforeAll(() => rendersWith('$x$', 'class="katex"'));

  it('draws $…$, \\(…\\), $$…$$ and \\[…\\] with KaTeX, keeping MathML for screen readers', () => {
    const html = render('Energy $E = mc^2$ and \\(a+b\\), shown: $$\\frac{1}{2}$$ and \\[\\sqrt{x}\\]');
    expect(formulaCount(html)).toBe(4);
    expect(html).toContain(
      '<math xmlns="http://www.w3.org/1998/Math/MathML"><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow></math>',
    );
    expect(html).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><mrow><mfrac><mn>1</mn><mn>2</mn></mfrac></mrow></math>');
    // The visual layer is hidden from screen readers (they read the MathML), and the TeX is not read twice.
    expect(html).toContain('class="katex-html" aria-hidden="true"');
    expect(html).not.toContain('annotation');
  });

  it('leaves prices and shell variables as text', () => {
    for (const text of ['It costs $5 and $10.', 'from $5, or $10 with tax', 'between $5/$10', 'US$5~$10', 'echo $HOME and $PATH', 'a lone $ sign', '$ 5 $']) {
      expect(formulaCount(render(text)), text).toBe(0);
      expect(render(text), text).toContain(text.replace(/&/g, '&amp;'));
    }
    // An escaped dollar is a dollar, also inside a formula.
    expect(render('\\$5 and \\$10')).toBe('<p>$5 and $10</p>\n');
    expect(formulaCount(render('$\\$5 + x$'))).toBe(1);
  });

  it('reads a formula followed by Korean particles or punctuation', () => {
    expect(formulaCount(render('$x$는 실수이고, $f(x)$의 값은 $y$.'))).toBe(3);
  });

  it('never reads a formula inside code', () => {
    const html = render('Use `$HOME/$USER` and `$x$`:\n\n```bash\necho "$a$b"\nprice=$5$\n```');
    expect(formulaCount(html)).toBe(0);
    expect(html).toContain('<code>$x$</code>');
  });

  it('makes a $$ block of its own a formula block with its TeX for the copy button, even right under a paragraph', () => {
    const blocks = renderMarkdownBlocks('The area:\n$$\n\\pi r^2\n$$\nas said.');
    expect(blocks.map((block) => block.kind)).toEqual(['text', 'formula', 'text']);
    expect(blocks[1]).toMatchObject({ source: '\\pi r^2' });
    expect(blocks[1]?.html).toContain('class="math-display" tabindex="0"');
  });

  it('shows a $$ block as text until it closes, as it streams in', () => {
    const partial = renderMarkdownBlocks('$$\n\\int_0^1 x\\,dx');
    expect(partial.map((block) => block.kind)).toEqual(['text']);
    expect(formulaCount(partial[0]!.html)).toBe(0);
    expect(partial[0]?.html).toContain('$$');
    expect(renderMarkdownBlocks('$$\n\\int_0^1 x\\,dx\n$$').map((block) => block.kind)).toEqual(['formula']);
    // A blank line ends an unclosed one: it never swallows the paragraphs after it.
    expect(renderMarkdownBlocks('$$ a\n\nnext paragraph $$').map((block) => block.kind)).toEqual(['text', 'text']);
  });

  it('draws a formula KaTeX cannot parse in red in its place, and one too long as its source', () => {
    const html = render('Broken $\\frac{1}{$ here');
    expect(html).toContain('katex-error');
    const long = `$${'x+'.repeat(MAX_TEX_LENGTH / 2)}x$`;
    expect(render(long)).toContain('<code class="math-source">$x+x+');
  });
});

describe('hostile formulas', () => {
  beforeAll(() => rendersWith('$x$', 'class="katex"'));

  it('makes no link, class, id, style or image from TeX commands that would', () => {
    const html = render(
      [
        '$\\href{javascript:alert(1)}{click}$',
        '$\\url{javascript:alert(2)}$',
        '$\\htmlClass{mantine-Modal-root}{x}$',
        '$\\htmlId{root}{x}$',
        '$\\htmlStyle{position:fixed;inset:0}{x}$',
        '$\\htmlData{foo=bar}{x}$',
        '$\\includegraphics{https://beacon.example/p.png}$',
      ].join(' '),
    );
    expect(formulaCount(html)).toBe(7);
    expect(html).not.toMatch(/<a[\s>]|href=|javascript:|<img|mantine-Modal-root"|id="root"|position:fixed|data-foo/);
    // Drawn as red errors, in place.
    expect(html).toContain('\\href</span>');
  });

  it('caps the size a formula asks for', () => {
    const html = render('$\\rule{100000em}{100000em}\\kern{50000em}$');
    const sizes = [...html.matchAll(/(?:width|height|margin-right|border-right-width|border-top-width):\s*([\d.]+)em/g)].map((match) => Number(match[1]));
    expect(sizes.length).toBeGreaterThan(0);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
  });

  it('stops a macro expansion bomb and absurd nesting without hanging or throwing', () => {
    const bomb =
      '\\def\\a{\\b\\b}\\def\\b{\\c\\c}\\def\\c{\\d\\d}\\def\\d{\\e\\e}\\def\\e{\\f\\f}\\def\\f{\\g\\g}\\def\\g{\\h\\h}\\def\\h{\\i\\i}\\def\\i{\\j\\j}\\def\\j{x}\\a';
    const html = render(`$${bomb}$`);
    expect(html).toContain('katex-error');
    expect(html).toContain('Too many expansions');
    const nested = render(`$${'{'.repeat(1500)}x${'}'.repeat(1500)}$`);
    expect(nested.includes('class="katex"') || nested.includes('math-source')).toBe(true);
  });

  it('keeps a macro one formula defines out of the next', () => {
    expect(render('$\\gdef\\secret{42}\\secret$')).toContain('<mn>42</mn>');
    const next = render('$\\secret$');
    expect(next).not.toContain('42');
    // An undefined command: drawn as its name, in red.
    expect(next).toContain('style="color: rgb(204, 0, 0)">\\secret</span>');
  });

  it('keeps raw HTML around a formula sanitized', () => {
    const html = render('<img src=x onerror=alert(1)> $x$ <svg><script>alert(1)</script></svg>');
    expect(formulaCount(html)).toBe(1);
    expect(html).not.toMatch(/onerror|<script/);
  });
});

describe('an answer streaming in', () => {
  beforeAll(async () => {
    await rendersWith('$x$', 'class="katex"');
    await rendersWith('```python\ndef f(): pass\n```', 'hljs-keyword');
  });

  /** Blocks whose source can grow into another kind, or be absorbed by what follows. */
  const answer = [
    'Intro *paragraph* with $x^2$ and a price of $5.\nSetext heading\n===\n\n',
    '- item one\n- item two\n\n  continued item after a blank line\n- item three\n\n',
    '> a quote\nlazy continuation\n\n',
    '| a | b |\n| --- | --- |\n| 1 | 2 |\n\n',
    'Formula below:\n$$\n\\frac{1}{2}\n$$\nafter it.\n\n',
    '```python\ndef f(x):\n    return x\n```\n\n',
    '```mermaid\nflowchart LR\n  A --> B\n```\n\n',
    'Text\n\n    indented code\n\n1. one\n2. two\n\n---\n\nEnd with `code` and a [link](https://example.org).',
  ].join('');

  it('renders every step the same as the whole text rendered at once, reading only its last block again', () => {
    let previous: RenderedMarkdown | null = null;
    for (let end = 1; end <= answer.length; end += 1 + (end % 5)) {
      const text = answer.slice(0, end);
      const rendered: RenderedMarkdown = renderMarkdown(text, { streaming: true, previous });
      expect(rendered.blocks, JSON.stringify(text)).toEqual(renderMarkdownBlocks(text, { streaming: true }));
      previous = rendered;
    }
    expect(previous?.lastStart).toBeGreaterThan(answer.length - 100);
    // The finished answer (no longer streaming) is read whole once more.
    expect(renderMarkdown(answer, { previous }).blocks).toEqual(renderMarkdownBlocks(answer));
  });

  it('reads the whole text again once it holds a link reference definition', () => {
    const first = renderMarkdown('See [the docs][d].\n\nMore', { streaming: true });
    const withDefinition = renderMarkdown('See [the docs][d].\n\nMore\n\n[d]: https://example.org/d', { streaming: true, previous: first });
    expect(withDefinition.blocks[0]?.html).toContain('href="https://example.org/d"');
    expect(withDefinition.lastStart).toBeNull();
  });
});
