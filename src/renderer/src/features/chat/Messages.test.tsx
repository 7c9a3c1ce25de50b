import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatFrame } from '../../../../shared/api';
import { testMessage } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import { ChatRun } from './chatRun';
import { MessageRow, StreamingTurn } from './Messages';

const face = { name: 'Helper', imageUrl: null };
const imported = { at: '2026-11-20T09:00:00Z', files: [] };
const branching = { regenerate: () => {}, edit: () => {}, switchTo: () => {}, busy: false };

describe('an imported message', () => {
  it('carries a quiet "Imported" mark that explains itself on hover and to a screen reader; a message sent here has none', async () => {
    renderScreen(
      <>
        <MessageRow message={testMessage(1, { text: 'Old question', parent_id: null, imported })} face={face} branching={branching} />
        <MessageRow message={testMessage(2, { text: 'Old answer', imported })} face={face} branching={branching} />
        <MessageRow message={testMessage(3, { text: 'New question' })} face={face} branching={branching} />
        <MessageRow message={testMessage(4, { text: 'New answer' })} face={face} branching={branching} />
      </>,
    );
    const [question, answer, newQuestion, newAnswer] = screen.getAllByTestId(/member-message|chatbot-message/);
    const explanation = 'Imported from a file: this message was not sent or answered in this chat.';
    for (const row of [question!, answer!]) {
      const mark = within(row).getByTestId('imported-mark');
      expect(mark).toHaveTextContent('Imported');
      // Read once, whole: the word on screen is hidden from screen readers, the explanation is not.
      expect(within(mark).getByText('Imported')).toHaveAttribute('aria-hidden', 'true');
      expect(within(mark).getByText(explanation)).toBeInTheDocument();
    }
    expect(within(newQuestion!).queryByTestId('imported-mark')).not.toBeInTheDocument();
    expect(within(newAnswer!).queryByTestId('imported-mark')).not.toBeInTheDocument();

    await userEvent.hover(within(answer!).getByTestId('imported-mark'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(explanation);
  });
});

describe('an answer streaming in', () => {
  afterEach(() => vi.useRealTimers());

  it('shows its first words on the next frame, without waiting for a batching tick', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'performance'] });
    let onFrame: (frame: ChatFrame) => void = () => {};
    const run = new ChatRun({
      chatbotId: 1,
      body: { text: 'Hi' },
      streamChat: (request) =>
        new Promise<void>(() => {
          request.onMeta({ session_hash_id: 'abc', session_created: true, member_message_id: 1, chatbot_message_id: 2, model: 'm' });
          onFrame = request.onFrame;
        }),
    });
    void run.start();
    renderScreen(<StreamingTurn run={run} face={face} />);
    act(() => onFrame({ type: 'text', delta: 'Hello there' }));
    // One frame at 60 Hz: well within spec §9's 50 ms tick.
    await act(() => vi.advanceTimersByTimeAsync(16));
    expect(screen.getByTestId('chatbot-message')).toHaveTextContent('Hello there');
  });
});
