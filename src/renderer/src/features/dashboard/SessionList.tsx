import { useMemo, useRef, useState } from 'react';
import { ActionIcon, Center, Loader, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useMatch } from 'react-router-dom';
import { sessionsApi, type Session } from '../../../../shared/api';
import { useEndpointInfiniteQuery } from '../../api/endpointHooks';
import { IconTrash } from '../../components/icons';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { focusOrMain } from '../../components/mainContent';
import { NEW_CHAT_LINK_ID } from './newChatTarget';
import { DeleteSessionDialog } from './DeleteSessionDialog';
import { useDeleteSession } from './useDeleteSession';
import { useLoadMoreAtEnd } from './useLoadMoreAtEnd';
import { groupSessionsByDate, type SessionPeriod } from './sessionGroups';
import classes from './SessionList.module.css';

/** Today, Yesterday, Previous 7 days, or the month (and year) in the interface language. */
function usePeriodLabel(): (period: SessionPeriod) => string {
  const { t } = useTranslation('dashboard');
  const language = useResolvedLanguage();
  const months = useMemo(() => new Intl.DateTimeFormat(language, { year: 'numeric', month: 'long' }), [language]);
  return (period) => (period.kind === 'month' ? months.format(new Date(period.year, period.month, 1)) : t(`session_groups.${period.kind}`));
}

/** My sessions, grouped by the day of their last message: titles (or Untitled), delete on hover, next page loaded when the end scrolls into view. */
export function SessionList() {
  const { t } = useTranslation('dashboard');
  // 30 per page (the API default), the next page loaded at the end of the list.
  const sessions = useEndpointInfiniteQuery(
    sessionsApi.listSessions,
    {},
    {
      pageQuery: (page: number) => ({ page }),
      initialPageParam: 1,
      getNextPageParam: (last) => (last.page < last.total_pages ? last.page + 1 : undefined),
    },
  );
  const deletion = useDeleteSession();
  const [pendingDelete, setPendingDelete] = useState<Session | null>(null);
  const openSession = useMatch('/dashboard/chat/:chatbotId/:sessionHashId');
  const endOfList = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const periodLabel = usePeriodLabel();
  // After a confirmed delete the trash button that opened the dialog is gone: focus moves to the
  // chat that took its place (or the one above, or New chat when the list is empty).
  const focusAfterDelete = useRef<string | null>(null);
  useLoadMoreAtEnd(endOfList, sessions);

  if (sessions.isPending) {
    return (
      <Stack gap={6} px={4} py={4}>
        {[70, 90, 55, 80].map((width) => (
          <Skeleton key={width} h={26} w={`${width}%`} radius="sm" />
        ))}
      </Stack>
    );
  }
  if (sessions.isError) {
    return (
      <Text size="xs" c="red.9" px="sm" py={6}>
        {t('sessions_load_failed')}
      </Text>
    );
  }

  const items = sessions.data.pages.flatMap((page) => page.items);
  return (
    <>
      {items.length === 0 ? (
        <Text size="xs" c="dimmed" px="sm" py={6}>
          {t('no_sessions')}
        </Text>
      ) : (
        <div ref={list} data-testid="session-list">
          {groupSessionsByDate(items, new Date()).map((group) => (
            <div key={group.key} role="group" className={classes.group} aria-labelledby={`session-group-${group.key}`}>
              <h2 id={`session-group-${group.key}`} className={classes.groupHeading} data-testid="session-group">
                {periodLabel(group.period)}
              </h2>
              <Stack gap={1} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
                {group.sessions.map((session) => {
                  const title = session.title || t('untitled');
                  const active = openSession?.params.sessionHashId === session.hash_id;
                  return (
                    <li key={session.hash_id} className={`${classes.item} ${active ? classes.active : ''}`} data-testid="session-item">
                      <Link
                        to={`/dashboard/chat/${session.chatbot_id}/${session.hash_id}`}
                        className={classes.title}
                        title={title}
                        aria-current={active ? 'page' : undefined}
                        data-hash={session.hash_id}
                      >
                        {title}
                      </Link>
                      <Tooltip label={t('delete_session.tooltip')}>
                        <ActionIcon
                          className={classes.delete}
                          variant="subtle"
                          color="gray"
                          size="sm"
                          aria-label={t('delete_session.aria', { title })}
                          onClick={() => setPendingDelete(session)}
                        >
                          <IconTrash size={15} />
                        </ActionIcon>
                      </Tooltip>
                    </li>
                  );
                })}
              </Stack>
            </div>
          ))}
        </div>
      )}
      <div ref={endOfList} aria-hidden />
      {sessions.isFetchingNextPage && (
        <Center py={6}>
          <Loader size="xs" />
        </Center>
      )}
      <DeleteSessionDialog
        session={pendingDelete}
        onClose={() => setPendingDelete(null)}
        onDelete={(session) => {
          const index = items.findIndex((item) => item.hash_id === session.hash_id);
          const neighbour = items[index + 1] ?? items[index - 1];
          // Deleting the open chat opens another one, whose message box takes focus instead.
          focusAfterDelete.current = openSession?.params.sessionHashId === session.hash_id ? null : (neighbour?.hash_id ?? '');
          deletion.mutate(session);
        }}
        onClosed={() => {
          const hash = focusAfterDelete.current;
          focusAfterDelete.current = null;
          if (hash === null) return;
          const link = hash ? list.current?.querySelector<HTMLElement>(`a[data-hash="${hash}"]`) : null;
          focusOrMain(link ?? document.getElementById(NEW_CHAT_LINK_ID));
        }}
      />
    </>
  );
}
