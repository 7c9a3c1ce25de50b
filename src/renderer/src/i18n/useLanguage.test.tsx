import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook as renderBareHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setPlatformForTests } from '../platform';
import { useUserSession } from '../stores/userSession';
import { createQueryClient } from '../api/queryClient';
import { installFakeApi } from '../test/fakeApi';
import { testMember } from '../test/fixtures';
import { useChangeLanguage, useMemberLanguageSync } from './useLanguage';

const member = testMember({ language: 'ko' });

/** The hooks save through the app's query client, as they do in the app. */
function renderHook<T>(hook: () => T) {
  const queryClient = createQueryClient({ defaultOptions: { mutations: { retry: false } } });
  return renderBareHook(hook, {
    wrapper: ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
  });
}

beforeEach(() => {
  localStorage.clear();
  useUserSession.setState({ member: null, language: null });
  vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-US');
});
afterEach(() => {
  setPlatformForTests(null);
  vi.restoreAllMocks();
});

describe('member language sync', () => {
  it('saves the language on screen on a member record that says otherwise, once', async () => {
    const api = installFakeApi({ 'PATCH /members/7/': async (request) => Response.json({ ...member, ...(await request.json()) }) });
    useUserSession.getState().setMember(member);
    const { rerender } = renderHook(() => useMemberLanguageSync());

    await waitFor(() => expect(useUserSession.getState().member?.language).toBe('en'));
    rerender();
    expect(api.find('PATCH', '/members/7/')).toHaveLength(1);
    expect(await api.find('PATCH', '/members/7/')[0]!.json()).toEqual({ language: 'en' });
  });

  it('leaves a matching record and a signed-out user alone', async () => {
    const api = installFakeApi({});
    useUserSession.setState({ language: 'ko' });
    const { rerender } = renderHook(() => useMemberLanguageSync());
    useUserSession.getState().setMember(member);
    rerender();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('a language change while signed in sends exactly one PATCH, with the new language', async () => {
    const api = installFakeApi({ 'PATCH /members/7/': async (request) => Response.json({ ...member, ...(await request.json()) }) });
    useUserSession.setState({ member: { ...member, language: 'en' }, language: 'en' });
    // Both hooks are mounted in the app: the dashboard's language menu and SessionRoot's sync.
    const { result, rerender } = renderHook(() => {
      useMemberLanguageSync();
      return useChangeLanguage();
    });

    act(() => result.current('ja'));
    await waitFor(() => expect(api.find('PATCH', '/members/7/')).toHaveLength(1));
    rerender();
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(api.find('PATCH', '/members/7/')).toHaveLength(1);
    expect(await api.find('PATCH', '/members/7/')[0]!.json()).toEqual({ language: 'ja' });
    expect(useUserSession.getState().member?.language).toBe('ja');
  });
});
