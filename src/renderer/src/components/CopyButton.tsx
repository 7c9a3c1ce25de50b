import { useEffect, useState, type ReactNode } from 'react';
import { ActionIcon, Tooltip, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { COPY_TOOLTIP_RESET_MS } from '../../../shared/domain/ui';
import { IconCheck, IconCopy } from './icons';
import { showToast } from './toast';
import { copyText } from './clipboard';
import classes from './CopyButton.module.css';

interface CopyButtonProps {
  text: string;
  /** What is copied, as the button's name ("Copy answer", "Copy code"). */
  label: string;
  testId?: string;
}

/**
 * Copies `text`; the tooltip says "Copied" for COPY_TOOLTIP_RESET_MS (spec §9), also announced to
 * screen readers, and a refused clipboard shows an error toast. A plain button, so Enter and Space
 * work.
 */
export function CopyButton({ text, label, testId }: CopyButtonProps) {
  const { t } = useTranslation('sharing');
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_TOOLTIP_RESET_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () => {
    copyText(text).then(
      () => setCopied(true),
      () => showToast('error', t('copy.failed')),
    );
  };

  return (
    <>
      <Tooltip label={copied ? t('copy.copied') : label} opened={copied ? true : undefined} withArrow>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={label} onClick={copy} data-testid={testId} data-copied={copied || undefined}>
          {copied ? <IconCheck size={15} /> : <IconCopy size={15} />}
        </ActionIcon>
      </Tooltip>
      <VisuallyHidden role="status">{copied ? t('copy.copied') : ''}</VisuallyHidden>
    </>
  );
}

/**
 * A rendered code block (or a formula: `copyLabel` "Copy formula") with a button in the top corner
 * that copies its source.
 */
export function CodeBlock({
  code,
  copyLabel,
  copyTestId = 'copy-code',
  children,
}: {
  code: string;
  copyLabel?: string;
  copyTestId?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('sharing');
  return (
    <div className={classes.codeBlock}>
      {children}
      <div className={classes.codeCopy}>
        <CopyButton text={code} label={copyLabel ?? t('copy.code')} testId={copyTestId} />
      </div>
    </div>
  );
}

/** Under a finished answer: copy its markdown, and what else the screen offers there (`children`). */
export function AnswerActions({ text, children }: { text: string; children?: ReactNode }) {
  const { t } = useTranslation('sharing');
  return (
    <div className={classes.answerActions}>
      <CopyButton text={text} label={t('copy.answer')} testId="copy-answer" />
      {children}
    </div>
  );
}
