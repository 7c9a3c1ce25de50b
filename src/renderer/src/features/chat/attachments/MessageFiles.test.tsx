import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderScreen } from '../../../test/render';
import { MessageFiles } from './MessageFiles';

const api = vi.hoisted(() => ({ fetchFileBlob: vi.fn() }));
vi.mock('../../../api/files', () => api);

describe('files of a message', () => {
  it('a document being downloaded shows how far it got, once, and saves it when done', async () => {
    let finish!: (blob: Blob) => void;
    api.fetchFileBlob.mockImplementation((_url: string, onProgress: (percentage: number) => void) => {
      onProgress(40);
      return new Promise((resolve) => (finish = resolve));
    });
    URL.createObjectURL = vi.fn(() => 'blob:report');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderScreen(<MessageFiles files={[{ id: 3, name: 'report.pdf', type: 'application/pdf', url: '/api/v1/files/3/', size: 10 } as never]} />);

    const button = screen.getByRole('button', { name: 'Open report.pdf' });
    await userEvent.click(button);
    expect(await screen.findByRole('status', { name: 'Downloading report.pdf: 40%' })).toHaveTextContent('40%');
    expect(button).toHaveAttribute('aria-busy', 'true');
    await userEvent.click(button); // a second click while it downloads starts nothing
    expect(api.fetchFileBlob).toHaveBeenCalledTimes(1);

    finish(new Blob(['%PDF']));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    expect(screen.queryByRole('status')).toBeNull();
  });
});
