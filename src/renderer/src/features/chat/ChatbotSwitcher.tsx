import { useEffect, useState } from 'react';
import { Button, Combobox, Loader, Text, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { keepPreviousData } from '@tanstack/react-query';
import { chatbotsApi, type Chatbot } from '../../../../shared/api';
import { CHATBOT_SWITCHER_SIZE } from '../../../../shared/domain/sharing';
import { SEARCH_DEBOUNCE_MS } from '../../../../shared/domain/ui';
import { useRecentChatbots } from '../../api/chatbots';
import { useEndpointQuery } from '../../api/endpointHooks';
import { errorKeyOf } from '../../api/errorMessages';
import { IconChevron, IconLock, IconSwitch } from '../../components/icons';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { useBelowBreakpoint } from '../../components/useBelowBreakpoint';
import { chatbotName } from '../../../../shared/domain/chatbots';
import classes from './chat.module.css';
import { messageText } from '../../i18n/keys';

/**
 * Chatbot search in the chat header (spec §2): a button naming the current chatbot opens a search
 * box over the chatbots the member sees (GET /chatbots/ with search_term, 300 ms after the last
 * key, spec §9). Arrow keys move through the results, Enter opens one, Escape closes and gives
 * focus back to the button. Where the header is narrow the button shows an icon only (its name
 * stays the accessible name): the chatbot's name is already on the line below the session title.
 */
export function ChatbotSwitcher({ current }: { current: Chatbot }) {
  const { t } = useTranslation('chat');
  const language = useResolvedLanguage();
  const navigate = useNavigate();
  const compact = useBelowBreakpoint('laptop');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const combobox = useCombobox({
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      combobox.focusTarget();
      setSearch('');
    },
    onDropdownOpen: () => combobox.focusSearchInput(),
  });
  // Chatbots the member sees (defaults first) matching the search, asked while the list is open.
  const results = useEndpointQuery(
    chatbotsApi.listChatbots,
    { query: { include_default: true, size: CHATBOT_SWITCHER_SIZE, search_term: debounced } },
    { enabled: combobox.dropdownOpened, placeholderData: keepPreviousData },
  );
  // An unnamed draft is the Studio's to test, not a chatbot to switch to.
  const items = (results.data?.items ?? []).filter((chatbot) => chatbot.status !== 'draft');
  // The member's recent chatbots head the list while nothing is searched (spec §7 relations).
  const recents = useRecentChatbots();
  const recentItems = debounced === '' ? (recents.data ?? []) : [];
  const others = items.filter((chatbot) => !recentItems.some((recent) => recent.id === chatbot.id));
  const options = (chatbots: Chatbot[]) =>
    chatbots.map((chatbot) => (
      <Combobox.Option
        value={String(chatbot.id)}
        key={chatbot.id}
        active={chatbot.id === current.id}
        disabled={!chatbot.llm_model.is_available}
        className={chatbot.llm_model.is_available ? undefined : classes.unavailableOption}
        data-testid="chatbot-switcher-option"
      >
        {chatbotName(chatbot, language)}
        {!chatbot.llm_model.is_available && (
          <Text size="xs" className={classes.unavailableReason}>
            <IconLock size={12} />
            {t('modelUnavailable.reason')}
          </Text>
        )}
      </Combobox.Option>
    ));

  // A new result list starts on its first entry, so Enter opens the best match (only then: the
  // store object is new on every render, its functions are stable).
  const { dropdownOpened, selectFirstOption } = combobox;
  useEffect(() => {
    if (dropdownOpened && results.data) selectFirstOption();
  }, [results.data, dropdownOpened, selectFirstOption]);

  const pending = results.isFetching || search.trim() !== debounced;
  let status;
  if (results.isError) status = messageText(errorKeyOf(results.error));
  else if (!results.data) status = t('loading');
  else if (items.length === 0 && !pending) status = t('picker.nothingFound');

  return (
    <Combobox
      store={combobox}
      width={280}
      position="bottom-end"
      onOptionSubmit={(value) => {
        combobox.closeDropdown();
        if (value !== String(current.id)) void navigate(`/dashboard/chat/${value}`);
      }}
    >
      <Combobox.Target withAriaAttributes={false}>
        <Button
          variant="default"
          size="xs"
          maw={200}
          px={compact ? 8 : undefined}
          leftSection={compact ? <IconSwitch size={16} /> : undefined}
          rightSection={<IconChevron size={14} />}
          onClick={() => combobox.toggleDropdown()}
          aria-haspopup="listbox"
          aria-expanded={combobox.dropdownOpened}
          aria-label={`${chatbotName(current, language)} · ${t('picker.label')}`}
          data-testid="chatbot-switcher"
        >
          {!compact && (
            <Text span inherit truncate>
              {chatbotName(current, language)}
            </Text>
          )}
        </Button>
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Search
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          placeholder={t('picker.placeholder')}
          aria-label={t('picker.label')}
          rightSection={pending && results.data ? <Loader size={12} /> : null}
        />
        {/* A long list scrolls: its box takes keyboard focus so arrow keys scroll it (options are chosen from the search field). */}
        <Combobox.Options aria-label={t('picker.label')} mah={320} style={{ overflowY: 'auto' }} tabIndex={0}>
          {status ? (
            <Combobox.Empty>{status}</Combobox.Empty>
          ) : (
            <>
              {recentItems.length > 0 && (
                <Combobox.Group label={t('picker.recent')} data-testid="chatbot-switcher-recent">
                  {options(recentItems)}
                </Combobox.Group>
              )}
              {recentItems.length > 0 ? (
                // Under their own heading, or they would read as more of the recent ones.
                <Combobox.Group label={t('picker.all')} data-testid="chatbot-switcher-all">
                  {options(others)}
                </Combobox.Group>
              ) : (
                options(others)
              )}
            </>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
