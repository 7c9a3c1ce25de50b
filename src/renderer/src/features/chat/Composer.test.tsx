import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderScreen } from '../../test/render';
import { useActiveRunStore } from './activeRun';
import { Composer } from './Composer';

interface HarnessProps {
  streaming?: boolean;
  disabled?: boolean;
  conversationKey?: string;
}

function renderComposer(props: HarnessProps = {}) {
  const onSend = vi.fn();
  const onStop = vi.fn();
  let setProps: (next: HarnessProps) => void = () => undefined;
  function Harness() {
    const [current, set] = useState<HarnessProps>(props);
    setProps = set;
    return (
      <Composer
        onSend={onSend}
        onStop={onStop}
        streaming={current.streaming ?? false}
        disabled={current.disabled}
        conversationKey={current.conversationKey ?? '1/'}
      />
    );
  }
  renderScreen(<Harness />);
  const rerender = (next: HarnessProps) => act(() => setProps(next));
  return { onSend, onStop, box: screen.getByRole('combobox', { name: 'Message' }) as HTMLTextAreaElement, rerender };
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

  it('takes focus once it is enabled, and again when another conversation opens', () => {
    const { box, rerender } = renderComposer({ disabled: true });
    expect(box).not.toHaveFocus();
    rerender({ disabled: false });
    expect(box).toHaveFocus();
    box.blur();
    rerender({ disabled: false });
    expect(box).not.toHaveFocus();
    rerender({ disabled: false, conversationKey: '1/abc' });
    expect(box).toHaveFocus();
  });

  it('leaves the focus in a field the member went to while the chat was loading', () => {
    const search = document.body.appendChild(Object.assign(document.createElement('input'), { type: 'search' }));
    const { box, rerender } = renderComposer({ disabled: true });
    search.focus();
    rerender({ disabled: false });
    expect(search).toHaveFocus();
    expect(box).not.toHaveFocus();
    // A link (a chat chosen in My chats) hands it over.
    const link = document.body.appendChild(Object.assign(document.createElement('a'), { href: '#' }));
    link.focus();
    rerender({ disabled: false, conversationKey: '1/abc' });
    expect(box).toHaveFocus();
    search.remove();
    link.remove();
  });

  it('Stop hands focus back to the message box', async () => {
    renderComposer({ streaming: true });
    const stop = screen.getByRole('button', { name: 'Stop answering' });
    await userEvent.click(stop);
    expect(screen.getByRole('combobox', { name: 'Message' })).toHaveFocus();
  });

  it('when the answer ends while Stop has focus, focus falls to the message box, not the page', () => {
    const { box, rerender } = renderComposer({ streaming: true });
    screen.getByRole('button', { name: 'Stop answering' }).focus();
    rerender({ streaming: false });
    expect(screen.queryByRole('button', { name: 'Stop answering' })).toBeNull();
    expect(box).toHaveFocus();
  });
});
