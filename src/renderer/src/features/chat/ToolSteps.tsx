import { useId, useState } from 'react';
import { Badge, Loader, Text, UnstyledButton } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ToolCall } from '../../../../shared/api';
import type { ToolCallStatus } from '../../../../shared/domain/mcp';
import { IconChevron, IconTool } from '../../components/icons';
import classes from './chat.module.css';

/** A part of an answer: its text up to the next tool calls, then those calls (made after that text). */
export interface AnswerPart {
  text: string;
  calls: ToolCall[];
}

/**
 * The answer's text cut where its tool calls were made (`text_offset`: how much text came before
 * each), so each step shows where it happened. An offset beyond the text so far (a streamed
 * answer's text is released a little behind its frames) puts the step after it.
 */
export function answerParts(text: string, calls: readonly ToolCall[]): AnswerPart[] {
  if (calls.length === 0) return [{ text, calls: [] }];
  const parts: AnswerPart[] = [];
  let from = 0;
  for (const call of calls) {
    const at = Math.min(Math.max(call.text_offset, from), text.length);
    const last = parts.at(-1);
    if (last && at === from && last.calls.length > 0) last.calls.push(call);
    else parts.push({ text: text.slice(from, at), calls: [call] });
    from = at;
  }
  parts.push({ text: text.slice(from), calls: [] });
  return parts;
}

/** Statuses told by a badge beside the step: what went wrong, or that the member stopped it. */
const BADGE_COLORS: Partial<Record<ToolCallStatus, string>> = { error: 'red', timeout: 'red', refused: 'red', stopped: 'gray' };

/** What ended a call badly or early, in words (null for a call that ran or still runs). */
export const toolCallStatusLabel = (t: TFunction<'chat'>, call: ToolCall): string | null =>
  call.status === 'ok' || call.status === 'running' ? null : t(`tools.status.${call.status}`);

/** Where a call ran and how long it took: a step's details and the print view say it alike. */
export const toolCallFacts = (t: TFunction<'chat'>, call: ToolCall): string[] =>
  [
    call.server_name && t('tools.server', { server: call.server_name }),
    call.duration_ms !== null && t('tools.duration', { seconds: (call.duration_ms / 1000).toFixed(1) }),
  ].filter((fact): fact is string => Boolean(fact));

/** Steps the member opened, by answer and call: one opened while streaming stays open when the stored answer takes its place. */
const opened = new Set<string>();

/** Arguments as the model gave them, indented; plain text like the result. */
const argumentsText = (args: ToolCall['arguments']) => JSON.stringify(args, null, 2);

/**
 * One tool call of an answer: a button naming the tool ("Used current_time", a spinner while it
 * runs) that shows its arguments and result. Both are the tool's and the model's own words, so they
 * are shown as plain text, never as markdown or HTML.
 */
export function ToolStep({ call, answerId }: { call: ToolCall; answerId: number | null }) {
  const { t } = useTranslation('chat');
  const key = answerId === null ? null : `${answerId}:${call.id}`;
  const [open, setOpen] = useState(() => key !== null && opened.has(key));
  const toggle = () => {
    if (key !== null) {
      if (open) opened.delete(key);
      else opened.add(key);
    }
    setOpen(!open);
  };
  const id = useId();
  const running = call.status === 'running';
  const badge = BADGE_COLORS[call.status];
  return (
    <div className={classes.toolStep} data-testid="tool-step" data-status={call.status}>
      <div className={classes.toolStepHead}>
        <UnstyledButton className={classes.toolStepToggle} aria-expanded={open} aria-controls={id} onClick={toggle} data-testid="tool-step-toggle">
          <IconChevron size={12} className={classes.toolStepChevron} data-open={open || undefined} aria-hidden="true" />
          {running ? <Loader size={12} aria-hidden="true" /> : <IconTool size={14} aria-hidden="true" />}
          <Text span size="sm" c="dimmed" className={classes.toolStepName}>
            {t(running ? 'tools.using' : 'tools.used', { name: call.name })}
          </Text>
        </UnstyledButton>
        {badge && (
          <Badge size="sm" variant="light" color={badge} data-testid="tool-step-status">
            {toolCallStatusLabel(t, call)}
          </Badge>
        )}
      </div>
      {open && (
        <div id={id} className={classes.toolStepDetails} data-testid="tool-step-details">
          <Text size="xs" c="dimmed">
            {toolCallFacts(t, call).join(' · ')}
          </Text>
          {call.withheld ? (
            <Text size="xs" data-testid="tool-step-withheld">
              {t('tools.withheld')}
            </Text>
          ) : (
            <>
              <Text size="xs" fw={600}>
                {t('tools.arguments')}
              </Text>
              <pre className={classes.toolStepCode} tabIndex={0} data-testid="tool-step-arguments">
                <code>{argumentsText(call.arguments)}</code>
              </pre>
            </>
          )}
          {!running && !call.withheld && (
            <>
              <Text size="xs" fw={600}>
                {t('tools.result')}
              </Text>
              <pre className={classes.toolStepCode} tabIndex={0} data-testid="tool-step-result">
                <code>{call.result === '' ? t('tools.no_result') : call.result}</code>
              </pre>
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** The calls made at one point of an answer (`answerId`: the answer's id once known). */
export function ToolSteps({ calls, answerId }: { calls: readonly ToolCall[]; answerId: number | null }) {
  return (
    <div className={classes.toolSteps}>
      {calls.map((call) => (
        <ToolStep key={call.id} call={call} answerId={answerId} />
      ))}
    </div>
  );
}
