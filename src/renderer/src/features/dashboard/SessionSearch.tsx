import { forwardRef, useRef } from 'react';
import { Center, CloseButton, Kbd, Loader, Skeleton, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useMatch } from 'react-router-dom';
import { sessionsApi, type ListedSession } from '../../../../shared/api';
import { useEndpointInfiniteQuery } from '../../api/endpointHooks';
import { errorKeyOf } from '../../api/errorMessages';
import { Highlighted } from '../../components/Highlighted';
import { messageText } from '../../i18n/keys';
import { IconSearch } from '../../components/icons';
import { useLoadMoreAtEnd } from './useLoadMoreAtEnd';
import classes from './SessionList.module.css';

/** Apple keyboards say ⌘ where the others say Ctrl. */
const isApple = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);

interface SessionSearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  /** Shows the keyboard shortcut in the empty box (not on touch-first layouts). */
  showShortcut: boolean;
}

/**
 * The search box atop My chats. Escape clears it (and only then, when already empty, reaches the
 * drawer, which it closes); Ctrl/⌘+K focuses it from anywhere (MySessions binds the shortcut).
 */
export const SessionSearchBox = forwardRef<HTMLInputElement, SessionSearchBoxProps>(function SessionSearchBox({ value, onChange, showShortcut }, ref) {
  const { t } = useTranslation('dashboard');
  const apple = isApple();
  return (
    <TextInput
      ref={ref}
      type="search"
      size="xs"
      radius="md"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || value === '') return;
        event.preventDefault();
        event.stopPropagation();
        onChange('');
      }}
      placeholder={t('search.placeholder')}
      aria-label={t('search.label')}
      aria-keyshortcuts={apple ? 'Meta+K' : 'Control+K'}
      leftSection={<IconSearch size={14} />}
      rightSectionWidth={value === '' ? 52 : undefined}
      rightSection={
        value !== '' ? (
          <CloseButton size="sm" aria-label={t('search.clear')} onClick={() => onChange('')} data-testid="session-search-clear" />
        ) : showShortcut ? (
          <Kbd size="xs" aria-hidden>
            {apple ? '⌘K' : 'Ctrl K'}
          </Kbd>
        ) : null
      }
      classNames={{ input: classes.searchInput }}
      data-testid="session-search"
    />
  );
});

/** Where a result opens: its session, at the message that matched. */
const resultPath = (session: ListedSession) =>
  `/dashboard/chat/${session.chatbot_id}/${session.hash_id}${session.match?.message ? `?message=${session.match.message.id}` : ''}`;

/**
 * The sessions matching `term` (GET /sessions/?search_term=), ranked by the server: title (matches
 * marked) and a snippet of the newest matching message with the words marked; 30 per page, the
 * next loaded at the end. The count of results is announced to screen readers.
 */
export function SessionSearchResults({ term }: { term: string }) {
  const { t } = useTranslation('dashboard');
  const results = useEndpointInfiniteQuery(
    sessionsApi.listSessions,
    { query: { search_term: term } },
    {
      pageQuery: (page: number) => ({ page }),
      initialPageParam: 1,
      getNextPageParam: (last) => (last.page < last.total_pages ? last.page + 1 : undefined),
      // The previous results stay while the next term is asked, instead of a flash of skeletons.
      placeholderData: keepPreviousData,
    },
  );
  const openSession = useMatch('/dashboard/chat/:chatbotId/:sessionHashId');
  const endOfList = useRef<HTMLDivElement>(null);
  useLoadMoreAtEnd(endOfList, results);

  let body;
  let status = '';
  if (results.isPending) {
    status = t('search.searching');
    body = (
      <Stack gap={8} px={4} py={4} data-testid="session-search-loading">
        {[80, 60, 70].map((width) => (
          <Skeleton key={width} h={40} w={`${width}%`} radius="sm" />
        ))}
      </Stack>
    );
  } else if (results.isError) {
    status = messageText(errorKeyOf(results.error));
    body = (
      <Text size="xs" c="red.9" px="sm" py={6}>
        {status}
      </Text>
    );
  } else {
    const items = results.data.pages.flatMap((page) => page.items);
    // The last page's total: a very common term is counted only up to the pages loaded (plus one when more follow).
    const last = results.data.pages.at(-1);
    const total = last?.total_items ?? 0;
    status =
      total === 0
        ? t('search.none', { term })
        : last?.total_is_lower_bound
          ? t('search.found_more', { count: total - 1 })
          : t('search.found', { count: total });
    body =
      items.length === 0 ? (
        <Text size="xs" c="dimmed" px="sm" py={6} data-testid="session-search-empty">
          {status}
        </Text>
      ) : (
        <ul className={classes.results} aria-label={t('search.results')} aria-busy={results.isPlaceholderData} data-testid="session-search-results">
          {items.map((session) => {
            const active = openSession?.params.sessionHashId === session.hash_id;
            const message = session.match?.message;
            return (
              <li key={session.hash_id}>
                <Link
                  to={resultPath(session)}
                  className={`${classes.result} ${active ? classes.active : ''}`}
                  aria-current={active ? 'page' : undefined}
                  data-testid="session-search-result"
                >
                  <span className={classes.resultTitle}>
                    {session.title ? <Highlighted text={session.title} ranges={session.match?.title_ranges ?? []} className={classes.mark} /> : t('untitled')}
                  </span>
                  {message && (
                    <span className={classes.snippet}>
                      <VisuallyHidden>{t(message.speaker_type === 'member' ? 'search.you_wrote' : 'search.answer')} </VisuallyHidden>
                      <Highlighted text={message.snippet} ranges={message.ranges} className={classes.mark} />
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      );
  }
  return (
    <>
      <VisuallyHidden role="status">{results.isFetching && !results.isFetchingNextPage ? t('search.searching') : status}</VisuallyHidden>
      {body}
      <div ref={endOfList} aria-hidden />
      {results.isFetchingNextPage && (
        <Center py={6}>
          <Loader size="xs" />
        </Center>
      )}
    </>
  );
}
