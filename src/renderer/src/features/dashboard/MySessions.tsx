import { useCallback, useEffect, useRef, useState } from 'react';
import { Box, Collapse, Group, Text, UnstyledButton } from '@mantine/core';
import { useDebouncedValue, useHotkeys } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { searchableTerm } from '../../../../shared/domain/sessionSearch';
import { SEARCH_DEBOUNCE_MS } from '../../../../shared/domain/ui';
import { IconChevron } from '../../components/icons';
import { useSideNavDrawer } from '../../components/SideNavShell';
import { useBelowBreakpoint } from '../../components/useBelowBreakpoint';
import { ImportSessionButton } from './ImportSessionButton';
import { SessionList } from './SessionList';
import { SessionSearchBox, SessionSearchResults } from './SessionSearch';
import classes from './NavBar.module.css';

/**
 * My chats: the search box, then the sessions (or, while a term is typed, the sessions matching it,
 * asked 300 ms after the last key). Ctrl/⌘+K focuses the box from anywhere but a rich-text editor,
 * where it makes a link.
 */
export function MySessions() {
  const { t } = useTranslation('dashboard');
  const [open, setOpen] = useState(true);
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(searchableTerm(search), SEARCH_DEBOUNCE_MS);
  const searchBox = useRef<HTMLInputElement>(null);
  const touchLayout = useBelowBreakpoint('sm');
  // The box is focused a frame after it is asked for: a folded My chats attaches it while still
  // `display: none` (then the ref callback takes the request), and one folding or unfolding shows it
  // only once the section's transition has started (then the effect does).
  const focusPending = useRef(false);
  const searchBoxRef = useCallback((input: HTMLInputElement | null) => {
    searchBox.current = input;
    if (!input || !focusPending.current) return;
    focusPending.current = false;
    requestAnimationFrame(() => {
      input.focus();
      input.select();
    });
  }, []);
  const [focusRequests, setFocusRequests] = useState(0);
  useEffect(() => {
    if (focusRequests > 0 && searchBox.current) searchBoxRef(searchBox.current);
  }, [focusRequests, searchBoxRef]);
  const drawer = useSideNavDrawer();
  const focusSearch = () => {
    focusPending.current = true;
    setOpen(true);
    setFocusRequests((count) => count + 1);
  };
  // In text fields too (Ctrl/⌘+K types nothing there), but not in a rich-text editor, where it makes a link.
  // On a small screen with the drawer closed, the box is there but hidden: the drawer opens first.
  useHotkeys([['mod+K', () => (drawer?.isDrawer && !drawer.opened ? drawer.open(focusSearch) : focusSearch())]], [], false);
  return (
    <Box>
      <UnstyledButton className={classes.sectionToggle} onClick={() => setOpen((value) => !value)} aria-expanded={open} data-testid="my-sessions-toggle">
        {t('my_sessions')}
        <IconChevron size={14} className={`${classes.chevron} ${open ? '' : classes.chevronClosed}`} />
      </UnstyledButton>
      <Collapse expanded={open}>
        <Box pt={4}>
          <Group px={4} pb={6} gap={4} wrap="nowrap">
            <Box role="search" flex={1} miw={0}>
              <SessionSearchBox ref={searchBoxRef} value={search} onChange={setSearch} showShortcut={!touchLayout} />
            </Box>
            <ImportSessionButton />
          </Group>
          {term !== '' ? (
            <SessionSearchResults term={term} />
          ) : search.trim() !== '' && searchableTerm(search) === '' ? (
            <Text size="xs" c="dimmed" px="sm" py={6} data-testid="session-search-too-short">
              {t('search.too_short')}
            </Text>
          ) : (
            <SessionList />
          )}
        </Box>
      </Collapse>
    </Box>
  );
}
