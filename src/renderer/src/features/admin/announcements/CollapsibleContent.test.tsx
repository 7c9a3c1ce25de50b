import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../../../test/render';
import { CollapsibleContent } from './CollapsibleContent';

/** jsdom has no layout: give every element the content height under test. */
function contentHeight(px: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(px);
}

afterEach(() => vi.restoreAllMocks());

describe('announcement content', () => {
  it('collapses content taller than 250px behind a gradient and expands on click', async () => {
    contentHeight(600);
    renderScreen(<CollapsibleContent>long text</CollapsibleContent>);
    const content = screen.getByTestId('announcement-content');
    expect(content).toHaveAttribute('data-collapsed', 'true');
    expect(content.firstElementChild).toHaveStyle({ maxHeight: '250px' });

    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));

    expect(content).toHaveAttribute('data-collapsed', 'false');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('leaves content of 250px or less as it is', () => {
    contentHeight(250);
    renderScreen(<CollapsibleContent>short text</CollapsibleContent>);
    expect(screen.getByTestId('announcement-content')).toHaveAttribute('data-collapsed', 'false');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });
});
