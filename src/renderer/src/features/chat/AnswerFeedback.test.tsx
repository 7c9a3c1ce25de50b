import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerFeedback, SessionMessage } from '../../../../shared/api';
import { setPlatformForTests } from '../../platform';
import { installFakeApi } from '../../test/fakeApi';
import { testMessage } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import { flattenHistory, useSessionHistory } from './history';
import { MessageRow } from './Messages';

const face = { name: 'Helper', imageUrl: null };
const question = testMessage(1, { text: 'What is the capital of France?', parent_id: null });
const answer = (extra: Partial<SessionMessage> = {}): SessionMessage => ({ ...question, id: 2, text: 'Paris.', speaker_type: 'chatbot', ...extra });
const saved = (body: Partial<AnswerFeedback>): AnswerFeedback => ({ rating: 'up', reason: null, comment: null, updated_at: '2025-01-01T00:00:00Z', ...body });

/** The chat's thread as far as ratings go: the session's history, each answer with its buttons. */
function Thread() {
  const history = useSessionHistory('abc');
  return (
    <>
      {flattenHistory(history.data).map((message) => (
        <MessageRow key={message.id} message={message} face={face} feedbackSessionHash="abc" />
      ))}
    </>
  );
}

function renderThread(stored: SessionMessage) {
  const api = installFakeApi({
    'GET /sessions/abc/history/': () => Response.json({ items: [question, stored], has_more: false, context_tokens: 10 }),
    'POST /sessions/abc/messages/2/feedback/': async (request) => Response.json(saved(await request.json())),
    'DELETE /sessions/abc/messages/2/feedback/': () => Response.json({ ok: true }),
  });
  renderScreen(<Thread />);
  return { api, user: userEvent.setup() };
}

afterEach(() => setPlatformForTests(null));

describe('thumbs under an answer', () => {
  it('shows the member’s saved rating after a reload, and takes it back with the pressed thumb', async () => {
    const { api, user } = renderThread(answer({ feedback: saved({ rating: 'up' }) }));
    const up = await screen.findByRole('button', { name: 'Good answer' });
    expect(up).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'false');

    await user.click(up);
    await waitFor(() => expect(up).toHaveAttribute('aria-pressed', 'false'));
    expect(api.find('DELETE', '/sessions/abc/messages/2/feedback/')).toHaveLength(1);
    expect(screen.getByText('Your rating was removed.')).toHaveAttribute('role', 'status');
  });

  it('rates up with one click and says thanks', async () => {
    const { api, user } = renderThread(answer());
    await user.click(await screen.findByRole('button', { name: 'Good answer' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Good answer' })).toHaveAttribute('aria-pressed', 'true'));
    expect(await api.find('POST', '/feedback/')[0]!.json()).toEqual({ rating: 'up' });
    expect(screen.getByText('Thanks for your feedback.')).toBeInTheDocument();
    expect(screen.queryByTestId('feedback-reason-form')).not.toBeInTheDocument();
  });

  it('offers no rating while the answer is still being written', async () => {
    renderThread(answer({ streaming: true }));
    expect(await screen.findByText('Paris.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Good answer' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Bad answer' })).not.toBeInTheDocument();
  });
});

describe('the reason form of a down rating', () => {
  it('is used from the keyboard: down is saved at once, then a reason, "other" needing words', async () => {
    const { api, user } = renderThread(answer());
    const down = await screen.findByRole('button', { name: 'Bad answer' });
    down.focus();
    await user.keyboard('{Enter}');
    const form = await screen.findByRole('form', { name: 'What was wrong with this answer?' });
    expect(await api.find('POST', '/feedback/')[0]!.json()).toEqual({ rating: 'down' });
    expect(down).toHaveAttribute('aria-pressed', 'true');

    // Focus went to the first reason; the arrows walk the reasons to "Other".
    const incorrect = within(form).getByRole('radio', { name: 'Incorrect' });
    await waitFor(() => expect(incorrect).toHaveFocus());
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(within(form).getByRole('radio', { name: 'Other' })).toBeChecked();

    await user.tab();
    const comment = within(form).getByRole('textbox', { name: 'Tell us more' });
    expect(comment).toHaveFocus();
    await user.tab();
    await user.keyboard('{Enter}');
    expect(within(form).getByText('Say what was wrong.')).toBeInTheDocument();
    expect(api.find('POST', '/feedback/')).toHaveLength(1);

    await user.type(comment, 'It answered another question');
    await user.click(within(form).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.queryByTestId('feedback-reason-form')).not.toBeInTheDocument());
    expect(await api.find('POST', '/feedback/')[1]!.json()).toEqual({ rating: 'down', reason: 'other', comment: 'It answered another question' });
    expect(down).toHaveFocus();
    expect(screen.getByText('Thanks, your reason was sent.')).toBeInTheDocument();
  });

  it('closes with Escape, keeping the down rating, and gives the focus back to the thumb', async () => {
    const { api, user } = renderThread(answer());
    await user.click(await screen.findByRole('button', { name: 'Bad answer' }));
    const form = await screen.findByRole('form', { name: 'What was wrong with this answer?' });
    await waitFor(() => expect(within(form).getByRole('radio', { name: 'Incorrect' })).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('feedback-reason-form')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bad answer' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.find('POST', '/feedback/')).toHaveLength(1);
  });
});
