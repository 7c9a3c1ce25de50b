import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COPY_TOOLTIP_RESET_MS } from '../../../shared/domain/ui';
import { renderScreen } from '../test/render';
import { CopyButton } from './CopyButton';

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('CopyButton', () => {
  it('copies the text and says Copied until the reset time has passed', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    stubClipboard(writeText);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderScreen(<CopyButton text="npm test" label="Copy code" />);

    fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Copied'));
    expect(writeText).toHaveBeenCalledWith('npm test');

    await act(() => vi.advanceTimersByTimeAsync(COPY_TOOLTIP_RESET_MS - 500));
    expect(screen.getByRole('status')).toHaveTextContent('Copied');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('shows an error toast when the clipboard and the copy command both refuse', async () => {
    stubClipboard(() => Promise.reject(new Error('denied')));
    document.execCommand = vi.fn(() => false);
    renderScreen(<CopyButton text="secret" label="Copy answer" />);

    fireEvent.click(screen.getByRole('button', { name: 'Copy answer' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Could not copy to the clipboard.'));
    expect(screen.queryByText('Copied')).not.toBeInTheDocument();
  });

  it('falls back to the copy command when the Clipboard API is refused', async () => {
    stubClipboard(() => Promise.reject(new Error('no permission')));
    const execCommand = vi.fn(() => true);
    document.execCommand = execCommand;
    renderScreen(<CopyButton text="fallback" label="Copy answer" />);

    fireEvent.click(screen.getByRole('button', { name: 'Copy answer' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Copied'));
    expect(execCommand).toHaveBeenCalledWith('copy');
  });
});
