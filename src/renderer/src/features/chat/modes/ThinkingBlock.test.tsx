import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../../test/render';
import { ThinkingBlock, thoughtSeconds } from './ThinkingBlock';

describe('ThinkingBlock', () => {
  it('is open while the model thinks and folds to "Thought for N s" once the answer starts', async () => {
    function Streaming() {
      const [ms, setMs] = useState<number | null>(null);
      return (
        <>
          <ThinkingBlock text="Step one, step two" ms={ms} active={ms === null} messageId={null} />
          <button onClick={() => setMs(3400)}>answer starts</button>
        </>
      );
    }
    renderScreen(<Streaming />);
    const toggle = screen.getByRole('button', { name: 'Thinking…' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Step one, step two')).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'answer starts' }));
    expect(screen.getByRole('button', { name: 'Thought for 3 s' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('Step one, step two')).toBeNull();
  });

  it('opens and closes from the keyboard', async () => {
    renderScreen(<ThinkingBlock text="Because of X" ms={1200} active={false} messageId={41} />);
    const user = userEvent.setup();
    await user.tab();
    const toggle = screen.getByRole('button', { name: 'Thought for 1 s' });
    expect(toggle).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Because of X')).toHaveAttribute('id', toggle.getAttribute('aria-controls'));
    await user.keyboard(' ');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('stays open when the streamed answer gives way to its stored copy', async () => {
    function Handover() {
      const [stored, setStored] = useState(false);
      return (
        <>
          {/* Two different places render the answer: the streaming turn, then the history list. */}
          {stored ? (
            <ThinkingBlock key="stored" text="Weighing it" ms={2000} active={false} messageId={42} />
          ) : (
            <ThinkingBlock key="streamed" text="Weighing it" ms={2000} active={false} messageId={42} />
          )}
          <button onClick={() => setStored(true)}>stored</button>
        </>
      );
    }
    renderScreen(<Handover />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Thought for 2 s' }));
    expect(screen.getByText('Weighing it')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'stored' }));
    expect(screen.getByRole('button', { name: 'Thought for 2 s' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Weighing it')).toBeInTheDocument();
  });

  it('counts whole seconds, at least one', () => {
    expect([thoughtSeconds(0), thoughtSeconds(1499), thoughtSeconds(1500), thoughtSeconds(61_000)]).toEqual([1, 1, 2, 61]);
  });
});
