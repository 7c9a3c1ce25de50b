import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { testMessage } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import { MessageRow } from './Messages';

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
