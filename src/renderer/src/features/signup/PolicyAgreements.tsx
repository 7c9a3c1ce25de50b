import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Anchor, Box, Button, Checkbox, Group, Input, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Policy } from '../../../../shared/api';
import { MarkdownContent } from '../../components/MarkdownContent';

interface PolicyAgreementsProps {
  policies: readonly Policy[];
  agreed: number[];
  onChange: (agreed: number[]) => void;
  error?: ReactNode;
}

/**
 * Spec §5: a policy's box can be ticked only once it was read to the end (markdown scrolled to
 * its end, a video watched to its end, a file opened) in its modal.
 */
export function PolicyAgreements({ policies, agreed, onChange, error }: PolicyAgreementsProps) {
  const { t } = useTranslation('signup');
  const [read, setRead] = useState<number[]>([]);
  const [open, setOpen] = useState<Policy | null>(null);
  const markRead = useCallback((id: number) => setRead((ids) => (ids.includes(id) ? ids : [...ids, id])), []);
  const toggle = (id: number, checked: boolean) => onChange(checked ? [...agreed, id] : agreed.filter((other) => other !== id));

  return (
    <Input.Wrapper label={t('policies.label')} error={error} id="signup-agreements">
      <Stack gap={8} mt={6}>
        {policies.map((policy) => (
          <Group key={policy.id} justify="space-between" wrap="nowrap" gap="xs">
            <Checkbox
              data-path="agreements"
              label={`${policy.policy_name} (${t(policy.is_mandatory ? 'policies.mandatory' : 'policies.optional')})`}
              checked={agreed.includes(policy.id)}
              disabled={!read.includes(policy.id)}
              description={read.includes(policy.id) ? undefined : t('policies.read_first')}
              onChange={(event) => toggle(policy.id, event.currentTarget.checked)}
            />
            <Button variant="subtle" size="compact-sm" onClick={() => setOpen(policy)} aria-label={t('policies.view_named', { name: policy.policy_name })}>
              {t('policies.view')}
            </Button>
          </Group>
        ))}
      </Stack>
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open?.policy_name} size="lg">
        {open && (
          <PolicyBody
            policy={open}
            read={read.includes(open.id)}
            onRead={() => markRead(open.id)}
            onAgree={() => {
              if (!agreed.includes(open.id)) onChange([...agreed, open.id]);
              setOpen(null);
            }}
          />
        )}
      </Modal>
    </Input.Wrapper>
  );
}

function PolicyBody({ policy, read, onRead, onAgree }: { policy: Policy; read: boolean; onRead: () => void; onAgree: () => void }) {
  const { t } = useTranslation('signup');
  const scroller = useRef<HTMLDivElement>(null);
  const checkScrolledToEnd = useCallback(() => {
    const box = scroller.current;
    if (box && box.scrollTop + box.clientHeight >= box.scrollHeight - 4) onRead();
  }, [onRead]);
  // Text short enough to need no scrolling is read as soon as it is shown.
  useEffect(checkScrolledToEnd, [checkScrolledToEnd]);

  return (
    <Stack>
      {policy.kind === 'markdown' && (
        <Box
          ref={scroller}
          onScroll={checkScrolledToEnd}
          mah="50vh"
          style={{ overflowY: 'auto' }}
          tabIndex={0}
          role="region"
          aria-label={t('policies.content', { name: policy.policy_name })}
          data-testid="policy-content"
        >
          <MarkdownContent markdown={policy.markdown_content ?? ''} />
        </Box>
      )}
      {policy.kind === 'video' && policy.video_url && (
        <video src={policy.video_url} controls onEnded={onRead} style={{ width: '100%' }} aria-label={policy.policy_name} />
      )}
      {policy.kind === 'file' &&
        (policy.file_url ? (
          <Anchor href={policy.file_url} target="_blank" rel="noopener" onClick={onRead}>
            {t('policies.open_file')}
          </Anchor>
        ) : (
          <Text c="dimmed">{t('policies.file_missing')}</Text>
        ))}
      <Text size="sm" c="dimmed" aria-live="polite">
        {read ? t('policies.read_done') : t(`policies.hint_${policy.kind}`)}
      </Text>
      <Group justify="flex-end">
        <Button onClick={onAgree} disabled={!read}>
          {t('policies.agree')}
        </Button>
      </Group>
    </Stack>
  );
}
