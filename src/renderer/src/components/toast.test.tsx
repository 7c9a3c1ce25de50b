import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../test/render';
import { showToast } from './toast';

describe('toasts', () => {
  it('shows at most three, closing the oldest for a fourth, each closable by a named button', async () => {
    renderScreen(<div />);
    act(() => {
      for (const n of [1, 2, 3, 4]) showToast('info', `message ${n}`);
    });

    await waitFor(() => expect(screen.queryByText('message 1')).not.toBeInTheDocument());
    for (const n of [2, 3, 4]) expect(screen.getByText(`message ${n}`)).toBeInTheDocument();
    const toasts = screen.getAllByRole('status');
    expect(toasts).toHaveLength(3);
    for (const toast of toasts) expect(toast.querySelector('button[aria-label="Close"]')).not.toBeNull();
  });

  it('announces errors at once and waits politely with successes', async () => {
    renderScreen(<div />);
    act(() => {
      showToast('success', 'Saved it');
      showToast('error', 'Broke it');
    });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Broke it'));
    expect(screen.getByRole('status')).toHaveTextContent('Saved it');
  });
});
