import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { MarkdownContent } from './MarkdownContent';
import { MAX_DIAGRAM_SOURCE } from './diagram';

function stubClipboard() {
  const writeText = vi.fn(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return writeText;
}

describe('MarkdownContent', () => {
  it('shows code plain at first and highlighted once its grammar has loaded on demand', async () => {
    const { container } = renderScreen(<MarkdownContent text={'Intro text\n\n```python\ndef answer():\n    return 42\n```'} />);
    expect(screen.getByText('Intro text')).toBeInTheDocument();
    expect(container.querySelector('pre code')).toHaveTextContent('def answer():');
    expect(await screen.findByText('def', { selector: '.hljs-keyword' })).toBeInTheDocument();
  });

  it('draws a displayed formula once KaTeX has loaded, with a button that copies its TeX', async () => {
    const writeText = stubClipboard();
    const { container } = renderScreen(<MarkdownContent text={'Half of it:\n\n$$\n\\frac{a}{b}\n$$'} />);
    await waitFor(() => expect(container.querySelector('.math-display .katex-display math')).not.toBeNull());
    // The MathML is what a screen reader reads.
    expect(container.querySelector('.math-display math mfrac')).toHaveTextContent('ab');
    fireEvent.click(screen.getByRole('button', { name: 'Copy formula (LaTeX)' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('\\frac{a}{b}'));
  });

  it('shows a diagram Mermaid cannot read as its source, with a short note and the copy button of code', async () => {
    const writeText = stubClipboard();
    const source = 'flowchart LR\n  A -->';
    const { container } = renderScreen(<MarkdownContent text={`\`\`\`mermaid\n${source}\n\`\`\``} />);
    expect(await screen.findByTestId('diagram-fallback')).toHaveTextContent('This diagram could not be drawn, so its source is shown.');
    expect(container.querySelector('pre code')).toHaveTextContent('flowchart LR A -->');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(source));
  });

  it('does not draw a diagram whose source is too long, and says so', () => {
    const source = `flowchart TD\n${'  A --> B\n'.repeat(MAX_DIAGRAM_SOURCE / 10)}`;
    renderScreen(<MarkdownContent text={`\`\`\`mermaid\n${source}\`\`\``} />);
    expect(screen.getByTestId('diagram-fallback')).toHaveTextContent('This diagram is too large to draw, so its source is shown.');
  });
});
