import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { MarkdownContent } from './MarkdownContent';

describe('MarkdownContent', () => {
  it('shows code plain at first and highlighted once its grammar has loaded on demand', async () => {
    const { container } = renderScreen(<MarkdownContent text={'Intro text\n\n```python\ndef answer():\n    return 42\n```'} />);
    expect(screen.getByText('Intro text')).toBeInTheDocument();
    expect(container.querySelector('pre code')).toHaveTextContent('def answer():');
    expect(await screen.findByText('def', { selector: '.hljs-keyword' })).toBeInTheDocument();
  });
});
