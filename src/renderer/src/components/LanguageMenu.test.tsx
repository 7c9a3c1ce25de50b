import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setPlatformForTests } from '../platform';
import { useUserSession } from '../stores/userSession';
import { installFakeApi } from '../test/fakeApi';
import { testMember } from '../test/fixtures';
import { renderScreen } from '../test/render';
import { LanguageMenu } from './LanguageMenu';

const member = testMember();

beforeEach(() => {
  localStorage.clear();
  useUserSession.setState({ member: null, language: null });
});
afterEach(() => {
  setPlatformForTests(null);
  vi.restoreAllMocks();
});

// Mantine opens the menu through animation frames, which a loaded CI machine can hold up for seconds.
describe('language', () => {
  it.each([
    ['ko-KR', '한국어'],
    ['ja-JP', 'English'],
    ['es', 'English'],
  ])('with no stored choice, browser %s gives %s (only ko or en is auto-chosen, spec §4)', (browser, shown) => {
    installFakeApi({});
    vi.spyOn(navigator, 'language', 'get').mockReturnValue(browser);
    renderScreen(<LanguageMenu />);
    expect(screen.getByTestId('language-menu')).toHaveTextContent(shown);
  });

  it('stores the choice in user-data and on the member record when signed in', async () => {
    const api = installFakeApi({ 'PATCH /members/7/': async (request) => Response.json({ ...member, ...(await request.json()) }) });
    useUserSession.getState().setMember(member);
    const user = userEvent.setup();
    renderScreen(<LanguageMenu />);

    await user.click(screen.getByTestId('language-menu'));
    await user.click(await screen.findByRole('menuitem', { name: '日本語' }, { timeout: 15_000 }));

    expect(JSON.parse(localStorage.getItem('user-data') ?? '{}').state.language).toBe('ja');
    await waitFor(() => expect(api.find('PATCH', '/members/7/')).toHaveLength(1));
    expect(await api.find('PATCH', '/members/7/')[0]!.json()).toEqual({ language: 'ja' });
  });

  it('signed out, the choice stays local; clearing the session keeps it', async () => {
    const api = installFakeApi({});
    const user = userEvent.setup();
    renderScreen(<LanguageMenu />);
    await user.click(screen.getByTestId('language-menu'));
    await user.click(await screen.findByRole('menuitem', { name: 'Español' }, { timeout: 15_000 }));

    useUserSession.getState().setMember(member);
    useUserSession.getState().clear();
    expect(useUserSession.getState()).toMatchObject({ member: null, language: 'es' });
    expect(api.fetch).not.toHaveBeenCalled();
  });
});
