import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ChatMeta } from '../../../../shared/api';
import type { ChatStreamRequest } from '../../platform/types';
import { testMessage, testToolCall } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import { ChatRun } from './chatRun';
import { MessageRow, StreamingTurn } from './Messages';
import { answerParts } from './ToolSteps';

const face = { name: 'Helper', imageUrl: null };

/** Whether `first` comes before `second` in the document. */
const before = (first: Node, second: Node) => (first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;

describe('answerParts', () => {
  it('cuts the text where the calls were made, groups calls made at the same point, and puts a call past the text after it', () => {
    const calls = [testToolCall({ id: 'a', text_offset: 6 }), testToolCall({ id: 'b', text_offset: 6 }), testToolCall({ id: 'c', text_offset: 99 })];
    expect(answerParts('Let me check. Done.', calls).map((part) => [part.text, part.calls.map((call) => call.id)])).toEqual([
      ['Let me', ['a', 'b']],
      [' check. Done.', ['c']],
      ['', []],
    ]);
    expect(answerParts('Plain', [])).toEqual([{ text: 'Plain', calls: [] }]);
  });
});

describe('tool steps in an answer', () => {
  it('shows a stored call as a step where it was made in the text, closed, opened and closed again by keyboard', async () => {
    const user = userEvent.setup();
    const message = testMessage(2, { text: 'Let me look.It is 10 pm in Seoul.', tool_calls: [testToolCall({ text_offset: 12 })] });
    renderScreen(<MessageRow message={message} face={face} />);
    const toggle = screen.getByRole('button', { name: 'Used current_time' });
    expect(before(screen.getByText('Let me look.'), toggle)).toBe(true);
    expect(before(toggle, screen.getByText('It is 10 pm in Seoul.'))).toBe(true);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('tool-step-details')).not.toBeInTheDocument();
    expect(screen.queryByTestId('tool-step-status')).not.toBeInTheDocument();

    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const details = screen.getByTestId('tool-step-details');
    expect(toggle).toHaveAttribute('aria-controls', details.id);
    expect(details).toHaveTextContent('From Demo tools · 1.2 s');
    expect(within(details).getByTestId('tool-step-arguments')).toHaveTextContent('"timezone": "Asia/Seoul"');
    expect(within(details).getByTestId('tool-step-result')).toHaveTextContent('2026-11-26T22:00:00+09:00');
    await user.keyboard(' ');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('tool-step-details')).not.toBeInTheDocument();
  });

  it.each([
    ['error', 'Failed'],
    ['timeout', 'Timed out'],
    ['refused', 'Not allowed'],
    ['stopped', 'Stopped'],
  ] as const)('marks a call that ended as %s with a badge', (status, label) => {
    renderScreen(<MessageRow message={testMessage(2, { text: 'Sorry.', tool_calls: [testToolCall({ status })] })} face={face} />);
    expect(screen.getByTestId('tool-step-status')).toHaveTextContent(label);
  });

  it('says why a sensitive tool’s arguments and result are missing on a shared chat, instead of an empty result', async () => {
    const message = testMessage(6, { text: 'Done.', tool_calls: [testToolCall({ arguments: {}, result: '', withheld: true })] });
    renderScreen(<MessageRow message={message} face={face} />);
    await userEvent.click(screen.getByRole('button', { name: 'Used current_time' }));
    expect(screen.getByTestId('tool-step-withheld')).toHaveTextContent(
      'This tool is marked sensitive, so its arguments and result are not shown on a shared chat.',
    );
    expect(screen.queryByTestId('tool-step-arguments')).not.toBeInTheDocument();
    expect(screen.queryByTestId('tool-step-result')).not.toBeInTheDocument();
  });

  it('shows a hostile result and arguments as plain text: no element, link or formatting comes of them', async () => {
    const hostile =
      '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> [click me](javascript:alert(1)) **bold** <a href="https://evil.example">link</a>';
    const message = testMessage(4, {
      text: 'Done.',
      tool_calls: [testToolCall({ name: '<b>tool</b>', arguments: { html: '<svg onload=alert(1)>', note: '[x](https://evil.example)' }, result: hostile })],
    });
    renderScreen(<MessageRow message={message} face={face} />);
    await userEvent.click(screen.getByRole('button', { name: 'Used <b>tool</b>' }));
    const step = screen.getByTestId('tool-step');
    expect(step.querySelectorAll('img, script, a, strong, b, svg:not([aria-hidden])')).toHaveLength(0);
    expect(within(step).getByTestId('tool-step-result').textContent).toBe(hostile);
    expect(within(step).getByTestId('tool-step-arguments')).toHaveTextContent('"html": "<svg onload=alert(1)>"');
    expect(within(step).getByTestId('tool-step-arguments')).toHaveTextContent('"note": "[x](https://evil.example)"');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('follows the stream: "Using…" with a spinner while the call runs, then the same step as used, still open once the answer is stored', async () => {
    const user = userEvent.setup();
    let request!: ChatStreamRequest;
    const run = new ChatRun({
      chatbotId: 5,
      body: { text: 'What time is it?' },
      streamChat: vi.fn((r: ChatStreamRequest) => {
        request = r;
        return new Promise<void>(() => {});
      }),
    });
    void run.start();
    const { unmount } = renderScreen(<StreamingTurn run={run} face={face} />);
    const meta: ChatMeta = { session_hash_id: 'abc', session_created: true, member_message_id: 1, chatbot_message_id: 2, model: 'demo' };
    act(() => {
      request.onMeta(meta);
      request.onFrame({ type: 'tool', call: testToolCall({ status: 'running', result: '', duration_ms: null }) });
    });
    expect(screen.getByRole('button', { name: 'Using current_time…' })).toBeInTheDocument();
    expect(screen.getByTestId('tool-step')).toHaveAttribute('data-status', 'running');
    // The step says the chatbot is at work: no typing dots beside it.
    expect(screen.queryByRole('status', { name: 'Preparing an answer' })).not.toBeInTheDocument();
    act(() => request.onFrame({ type: 'tool', call: testToolCall() }));
    expect(screen.getAllByTestId('tool-step')).toHaveLength(1);
    const step = screen.getByRole('button', { name: 'Used current_time' });
    expect(step).toHaveAttribute('aria-expanded', 'false');
    await user.click(step);
    run.stop();
    // The stored answer takes the streamed one's place: the step the member opened stays open.
    unmount();
    renderScreen(<MessageRow message={testMessage(2, { text: '', tool_calls: [testToolCall()] })} face={face} />);
    expect(screen.getByRole('button', { name: 'Used current_time' })).toHaveAttribute('aria-expanded', 'true');
  });
});
