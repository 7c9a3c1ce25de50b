import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../test/render';
import { showToast } from './toast';

describe('toasts', () => {
  it('shows at most three, closing the oldest for a fourth, each closable', async () => {
    renderScreen(<div />);
    act(() => {
      for (const n of [1, 2, 3, 4]) showToast('info', `message ${n}`);
    });

    await waitFor(() => expect(screen.queryByText('message 1')).not.toBeInTheDocument());
    for (const n of [2, 3, 4]) expect(screen.getByText(`message ${n}`)).toBeInTheDocument();
    expect(screen.getAllByRole('alert').every((toast) => toast.querySelector('button'))).toBe(true);
  });
});
