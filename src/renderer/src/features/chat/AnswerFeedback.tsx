import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ActionIcon, Box, Button, Group, Radio, Stack, Textarea, Tooltip, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { feedbackApi, type AnswerFeedback as Feedback } from '../../../../shared/api';
import { FEEDBACK_COMMENT_MAX, FEEDBACK_REASONS, type FeedbackRating, type FeedbackReason } from '../../../../shared/domain/feedback';
import { useEndpointMutation } from '../../api/endpointHooks';
import { IconThumbDown, IconThumbUp } from '../../components/icons';
import { setMessageFeedback } from './history';
import classes from './chat.module.css';

interface ReasonFormProps {
  initial: Feedback | null;
  pending: boolean;
  onSend: (reason: FeedbackReason | undefined, comment: string | undefined) => void;
  onClose: () => void;
}

/** Why the answer was rated down: one of the reasons and, optionally (required for "other"), in the member's words. */
export function ReasonForm({ initial, pending, onSend, onClose }: ReasonFormProps) {
  const { t } = useTranslation('feedback');
  const [reason, setReason] = useState<FeedbackReason | null>(initial?.reason ?? null);
  const [comment, setComment] = useState(initial?.comment ?? '');
  const [commentMissing, setCommentMissing] = useState(false);
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // Opened by the thumbs-down click: the keyboard goes on to the reasons.
  useEffect(() => formRef.current?.querySelector<HTMLInputElement>('input[type="radio"]')?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const words = comment.trim();
    // The contract's rule: "other" says why in words.
    if (reason === 'other' && words === '') {
      setCommentMissing(true);
      return;
    }
    onSend(reason ?? undefined, words === '' ? undefined : words);
  };

  return (
    <Box
      component="form"
      ref={formRef}
      className={classes.feedbackForm}
      aria-labelledby={titleId}
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
      data-testid="feedback-reason-form"
    >
      <Stack gap="xs">
        <Radio.Group
          id={titleId}
          label={t('reason.title')}
          value={reason}
          onChange={(value) => {
            setReason(value as FeedbackReason);
            setCommentMissing(false);
          }}
        >
          <Group gap="md" mt={6}>
            {FEEDBACK_REASONS.map((value) => (
              <Radio key={value} value={value} label={t(`reason.${value}`)} />
            ))}
          </Group>
        </Radio.Group>
        <Textarea
          label={t(reason === 'other' ? 'reason.comment_required' : 'reason.comment')}
          value={comment}
          onChange={(event) => {
            setComment(event.currentTarget.value);
            setCommentMissing(false);
          }}
          maxLength={FEEDBACK_COMMENT_MAX}
          autosize
          minRows={2}
          maxRows={5}
          withAsterisk={reason === 'other'}
          aria-required={reason === 'other'}
          error={commentMissing ? t('reason.comment_missing') : undefined}
          data-testid="feedback-comment"
        />
        <Group gap="xs">
          <Button type="submit" size="compact-sm" loading={pending} data-testid="feedback-send">
            {t('reason.send')}
          </Button>
          <Button type="button" size="compact-sm" variant="subtle" color="gray" onClick={onClose}>
            {t('reason.skip')}
          </Button>
        </Group>
      </Stack>
    </Box>
  );
}

interface AnswerFeedbackProps {
  sessionHash: string;
  messageId: number;
  /** The member's rating as saved; null when they gave none. */
  feedback: Feedback | null;
}

/**
 * Thumbs up or down under a finished answer of the member's own chat. A click saves at once; the
 * pressed thumb again takes the rating back; a down rating then asks why (optional). What the
 * server saved goes into the cached history, so the buttons keep their state.
 */
export function AnswerFeedback({ sessionHash, messageId, feedback }: AnswerFeedbackProps) {
  const { t } = useTranslation('feedback');
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const downButton = useRef<HTMLButtonElement>(null);
  const params = { hash: sessionHash, id: messageId };
  const store = (saved: Feedback | null) => setMessageFeedback(queryClient, sessionHash, messageId, saved);
  const rate = useEndpointMutation(feedbackApi.rateAnswer, { onSuccess: store });
  const remove = useEndpointMutation(feedbackApi.removeAnswerFeedback, { onSuccess: () => store(null) });
  const busy = rate.isPending || remove.isPending;
  const current = feedback?.rating ?? null;

  const closeForm = () => {
    setAsking(false);
    downButton.current?.focus();
  };

  const choose = (rating: FeedbackRating) => {
    // Not disabled while a call is out: a disabled button would drop the focus the form gives back to it.
    if (busy) return;
    if (current === rating) {
      setAsking(false);
      remove.mutate({ params }, { onSuccess: () => setAnnouncement(t('removed')) });
      return;
    }
    rate.mutate(
      { params, body: { rating } },
      {
        onSuccess: () => {
          setAnnouncement(t('thanks'));
          setAsking(rating === 'down');
        },
      },
    );
  };

  const thumb = (rating: FeedbackRating) => {
    const pressed = current === rating;
    const label = t(rating === 'up' ? 'rate_up' : 'rate_down');
    const Icon = rating === 'up' ? IconThumbUp : IconThumbDown;
    return (
      <Tooltip label={label} withArrow>
        <ActionIcon
          ref={rating === 'down' ? downButton : undefined}
          variant={pressed ? 'light' : 'subtle'}
          color={pressed ? 'indigo' : 'gray'}
          size="sm"
          aria-label={label}
          aria-pressed={pressed}
          onClick={() => choose(rating)}
          data-testid={`feedback-${rating}`}
        >
          <Icon size={15} fill={pressed ? 'currentColor' : 'none'} fillOpacity={0.25} />
        </ActionIcon>
      </Tooltip>
    );
  };

  return (
    <>
      {thumb('up')}
      {thumb('down')}
      <VisuallyHidden role="status">{announcement}</VisuallyHidden>
      {asking && (
        <ReasonForm
          initial={feedback}
          pending={rate.isPending}
          onClose={closeForm}
          onSend={(reason, comment) =>
            rate.mutate(
              { params, body: { rating: 'down', reason, comment } },
              {
                onSuccess: () => {
                  setAnnouncement(t('thanks_reason'));
                  closeForm();
                },
              },
            )
          }
        />
      )}
    </>
  );
}
