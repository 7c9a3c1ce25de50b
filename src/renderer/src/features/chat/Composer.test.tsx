import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderScreen } from '../../test/render';
import { useActiveRunStore } from './activeRun';
import { Composer } from './Composer';

function renderComposer(props: { streaming?: boolean } = {}) {
  const onSend = vi.fn();
  const onStop = vi.fn();
  renderScreen(<Composer onSend={onSend} onStop={onStop} streaming={props.streaming ?? false} />);
  return { onSend, onStop, box: screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement };
}

describe('Composer', () => {
  afterEach(() => useActiveRunStore.setState({ draft: '', run: null }));

  it('sends the trimmed text on Enter and clears the box', async () => {
    const { onSend, box } = renderComposer();
    await userEvent.type(box, '  hello there  {Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('hello there');
    expect(box.value).toBe('');
  });

  it('Shift+Enter adds a line instead of sending', async () => {
    const { onSend, box } = renderComposer();
    await userEvent.type(box, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(onSend).not.toHaveBeenCalled();
    expect(box.value).toBe('line one\nline two');
  });

  it('Enter that commits an IME composition does not send', () => {
    const { onSend, box } = renderComposer();
    fireEvent.change(box, { target: { value: '안녕하세요' } });
    fireEvent.compositionStart(box);
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.compositionEnd(box);
    // Safari reports the committing Enter after compositionend with keyCode 229.
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 229 });
    expect(onSend).not.toHaveBeenCalled();
    expect(box.value).toBe('안녕하세요');

    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledExactlyOnceWith('안녕하세요');
  });

  it('does not send empty or blank text', async () => {
    const { onSend, box } = renderComposer();
    const sendButton = screen.getByRole('button', { name: 'Send' });
    expect(sendButton).toBeDisabled();
    await userEvent.type(box, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(sendButton).toBeDisabled();
  });

  it('offers no Stop button when nothing streams', () => {
    renderComposer();
    expect(screen.queryByRole('button', { name: 'Stop answering' })).toBeNull();
  });

  it('Stop and Escape call onStop while streaming, and a new message can still be sent', async () => {
    const { onSend, onStop, box } = renderComposer({ streaming: true });
    await userEvent.click(screen.getByRole('button', { name: 'Stop answering' }));
    expect(onStop).toHaveBeenCalledOnce();
    await userEvent.type(box, '{Escape}');
    expect(onStop).toHaveBeenCalledTimes(2);
    await userEvent.type(box, 'next question{Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('next question');
  });
});
