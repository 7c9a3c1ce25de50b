import { type KeyboardEvent, type RefObject, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { promptsApi, type Prompt } from '../../../../../shared/api';
import { fillPrompt, matchPrompts, slashCommandAt } from '../../../../../shared/domain/prompts';
import { useEndpointQuery } from '../../../api/endpointHooks';

type SlashCommand = NonNullable<ReturnType<typeof slashCommandAt>>;

/**
 * The `/` menu of the message box (issue 23): typing `/` at the start or after white space offers
 * the tenant's and the member's prompts, filtered by what follows. The box is an ARIA combobox
 * (arrows move, Enter or Tab inserts, Escape closes) and the menu its listbox. A prompt with
 * variables asks for them first (`filling`); the text then replaces the `/command` in the box,
 * to be read and sent by the member. Prompts load the first time `/` is typed.
 */
export function usePromptInsertion({
  input,
  draft,
  setDraft,
  enabled,
}: {
  input: RefObject<HTMLTextAreaElement | null>;
  draft: string;
  setDraft: (text: string) => void;
  enabled: boolean;
}) {
  const listboxId = useId();
  const [caret, setCaret] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const [wanted, setWanted] = useState(false);
  /** Where the `/` of the command Escape closed is: that command stays closed, a new one opens. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [active, setActive] = useState({ command: '', index: 0 });
  const [filling, setFilling] = useState<{ prompt: Prompt; command: SlashCommand } | null>(null);

  const command = enabled && caret !== null ? slashCommandAt(draft, caret) : null;
  if (command && !wanted) setWanted(true);
  if (!command && dismissed !== null) setDismissed(null);
  const prompts = useEndpointQuery(promptsApi.listPrompts, {}, { enabled: enabled && wanted, errorToast: true });
  const matches = command ? matchPrompts(prompts.data?.items ?? [], command.query) : [];
  const open = focused && command !== null && command.start !== dismissed && matches.length > 0 && filling === null;
  const commandKey = command ? `${command.start}:${command.query}` : '';
  const index = active.command === commandKey ? Math.min(active.index, matches.length - 1) : 0;
  const optionId = (prompt: Prompt) => `${listboxId}-${prompt.id}`;
  const activeOption = open ? matches[index] : undefined;
  const activeId = activeOption ? optionId(activeOption) : undefined;

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  // Placed as soon as the box holds its new text (a layout effect runs before the next key event):
  // placed a frame later, a key typed meanwhile landed after the caret, which then jumped back before it.
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null) return;
    pendingCaret.current = null;
    input.current?.focus();
    input.current?.setSelectionRange(at, at);
  });
  const putCaret = (at: number) => {
    setCaret(at);
    pendingCaret.current = at;
  };

  /** The `/command` gives way to the text; the caret goes after it. */
  const insert = (text: string, at: SlashCommand) => {
    const end = at.start + 1 + at.query.length;
    setDraft(draft.slice(0, at.start) + text + draft.slice(end));
    putCaret(at.start + text.length);
  };

  const choose = (prompt: Prompt) => {
    if (!command) return;
    if (prompt.variables.length > 0) setFilling({ prompt, command });
    else insert(prompt.text, command);
  };

  /** True when the key belonged to the menu (the box then does nothing more with it). */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !command) return false;
    if (event.nativeEvent.isComposing || event.keyCode === 229) return false;
    const move = (by: number) => setActive({ command: commandKey, index: (index + by + matches.length) % matches.length });
    if (event.key === 'ArrowDown') move(1);
    else if (event.key === 'ArrowUp') move(-1);
    else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) choose(matches[index]!);
    else if (event.key === 'Escape') setDismissed(command.start);
    else return false;
    event.preventDefault();
    return true;
  };

  const trackCaret = (event: { currentTarget: HTMLTextAreaElement }) => setCaret(event.currentTarget.selectionStart);

  return {
    /** What the message box adds: combobox semantics, caret and focus tracking. */
    inputProps: enabled
      ? {
          role: 'combobox',
          'aria-autocomplete': 'list' as const,
          'aria-haspopup': 'listbox' as const,
          'aria-expanded': open,
          'aria-controls': open ? listboxId : undefined,
          'aria-activedescendant': activeId,
          onSelect: trackCaret,
          onFocus: () => setFocused(true),
          onBlur: () => setFocused(false),
        }
      : {},
    trackCaret,
    onKeyDown,
    menu: { open, listboxId, matches, activeIndex: index, optionId, choose, hover: (at: number) => setActive({ command: commandKey, index: at }) },
    filling: filling?.prompt ?? null,
    cancelFilling: () => {
      const at = filling?.command;
      setFilling(null);
      if (at) putCaret(at.start + 1 + at.query.length);
    },
    fill: (values: Record<string, string>) => {
      if (!filling) return;
      setFilling(null);
      insert(fillPrompt(filling.prompt.text, values), filling.command);
    },
  };
}
