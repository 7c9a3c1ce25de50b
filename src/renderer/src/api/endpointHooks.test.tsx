import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, hashKey } from '@tanstack/react-query';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { adminTaskModesApi, membersApi, sessionsApi } from '../../../shared/api';
import { initI18n } from '../i18n';
import { setPlatformForTests } from '../platform';
import { installFakeApi } from '../test/fakeApi';
import { AppMantineProvider } from '../theme';
import { endpointKey, invalidateEndpoints, useEndpointInfiniteQuery, useEndpointMutation, useEndpointQuery } from './endpointHooks';
import { createQueryClient } from './queryClient';

afterEach(() => setPlatformForTests(null));

function wrapper() {
  initI18n('en');
  const queryClient = createQueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <AppMantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </AppMantineProvider>
  );
  return { queryClient, wrapper: Wrapper };
}

const modes = { items: [{ id: 3, ko_name: '', en_name: 'Summary', mode_name: 'Summary', instructions: 'Sum up.' }] };
const gone = () => Response.json({ code: 'not_found', message: 'gone' }, { status: 404 });

describe('endpointKey', () => {
  it('starts with the endpoint (method and path), so the endpoint alone is a prefix of every answer of it', () => {
    expect(endpointKey(membersApi.getMember)).toEqual(['GET', membersApi.getMember.path]);
    expect(endpointKey(membersApi.getMember, { params: { id: 7 } })).toEqual(['GET', membersApi.getMember.path, { params: { id: 7 } }]);
  });

  it('leaves out query values that are not sent, and does not depend on their order', () => {
    const endpoint = { method: 'GET', path: '/things/' } as const;
    expect(endpointKey(endpoint, { query: { search: '', page: undefined } })).toEqual(['GET', '/things/']);
    expect(hashKey(endpointKey(endpoint, { query: { page: 2, search: 'a', order: null } }))).toBe(
      hashKey(endpointKey(endpoint, { query: { search: 'a', page: 2 } })),
    );
    expect(hashKey(endpointKey(endpoint, { query: { page: 2 } }))).not.toBe(hashKey(endpointKey(endpoint, { query: { page: 3 } })));
  });
});

describe('useEndpointQuery and useEndpointMutation', () => {
  it('reloads the endpoints a mutation invalidates once it succeeded', async () => {
    const api = installFakeApi({
      'GET /admin/task-modes/': () => Response.json(modes),
      'DELETE /admin/task-modes/3/': () => new Response(null, { status: 204 }),
    });
    const { wrapper: Wrapper } = wrapper();
    const { result } = renderHook(
      () => ({
        list: useEndpointQuery(adminTaskModesApi.listAdminTaskModes, {}),
        remove: useEndpointMutation(adminTaskModesApi.deleteTaskMode, { invalidates: [adminTaskModesApi.listAdminTaskModes] }),
      }),
      { wrapper: Wrapper },
    );
    await waitFor(() => expect(result.current.list.data?.items).toHaveLength(1));
    await act(() => result.current.remove.mutateAsync({ params: { id: 3 } }));
    await waitFor(() => expect(api.find('GET', '/admin/task-modes/')).toHaveLength(2));
  });

  it('shows one toast with the endpoint’s own message when a mutation fails', async () => {
    installFakeApi({ 'DELETE /admin/task-modes/3/': gone });
    const { wrapper: Wrapper } = wrapper();
    const { result } = renderHook(() => useEndpointMutation(adminTaskModesApi.deleteTaskMode), { wrapper: Wrapper });
    act(() => result.current.mutate({ params: { id: 3 } }));
    expect(await screen.findByText('This task mode no longer exists. The list has been refreshed.')).toBeInTheDocument();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('shows no toast for a mutation that says its error itself', async () => {
    installFakeApi({ 'DELETE /admin/task-modes/3/': gone, 'GET /admin/task-modes/': () => Response.json(modes) });
    const { wrapper: Wrapper } = wrapper();
    const { result } = renderHook(
      // The query after it: its answer is awaited, so a toast of the failure would be on screen by then.
      () => ({
        remove: useEndpointMutation(adminTaskModesApi.deleteTaskMode, { errorToast: false }),
        list: useEndpointQuery(adminTaskModesApi.listAdminTaskModes, {}, { enabled: false }),
      }),
      { wrapper: Wrapper },
    );
    await act(async () => {
      await result.current.remove.mutateAsync({ params: { id: 3 } }).catch(() => undefined);
      await result.current.list.refetch();
    });
    await waitFor(() => expect(result.current.remove.isError).toBe(true));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('toasts a failed load only when the query asks for it, and never a 401', async () => {
    installFakeApi({
      'GET /admin/task-modes/': () => Response.json({ code: 'internal_error', message: 'boom' }, { status: 500 }),
      'GET /members/7/': () => Response.json({ code: 'unauthorized', message: 'no' }, { status: 401 }),
    });
    const { wrapper: Wrapper } = wrapper();
    const { result } = renderHook(
      () => ({
        member: useEndpointQuery(membersApi.getMember, { params: { id: 7 } }, { errorToast: true }),
        modes: useEndpointQuery(adminTaskModesApi.listAdminTaskModes, {}, { errorToast: true }),
      }),
      { wrapper: Wrapper },
    );
    await waitFor(() => expect(result.current.member.isError && result.current.modes.isError).toBe(true));
    expect(await screen.findByText('A server error occurred. Please try again later.')).toBeInTheDocument();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('sends what toInput makes of the screen’s own variables, which its callbacks still get', async () => {
    const api = installFakeApi({ 'DELETE /admin/task-modes/3/': () => new Response(null, { status: 204 }) });
    const { wrapper: Wrapper } = wrapper();
    const deleted: string[] = [];
    const { result } = renderHook(
      () =>
        useEndpointMutation(adminTaskModesApi.deleteTaskMode, {
          toInput: (mode: { id: number; name: string }) => ({ params: { id: mode.id } }),
          onSuccess: (_answer, mode) => void deleted.push(mode.name),
        }),
      { wrapper: Wrapper },
    );
    await act(() => result.current.mutateAsync({ id: 3, name: 'Summary' }));
    expect(api.find('DELETE', '/admin/task-modes/3/')).toHaveLength(1);
    expect(deleted).toEqual(['Summary']);
  });
});

describe('useEndpointInfiniteQuery', () => {
  const session = (n: number) => ({
    id: n,
    hash_id: `s${n}`,
    chatbot_id: 5,
    chatbot: { id: 5 },
    title: `Session ${n}`,
    is_public: false,
    creator_name: 'Ada',
    last_chat_at: null,
    created_at: '2025-01-01T00:00:00Z',
  });
  it('loads page after page with the page query, and invalidating the endpoint reloads them', async () => {
    const api = installFakeApi({
      'GET /sessions/': (request) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return Response.json({ items: [session(page)], total_items: 2, total_pages: 2, page, page_size: 1 });
      },
    });
    const { queryClient, wrapper: Wrapper } = wrapper();
    const { result } = renderHook(
      () =>
        useEndpointInfiniteQuery(
          sessionsApi.listSessions,
          {},
          {
            pageQuery: (page: number) => ({ page }),
            initialPageParam: 1,
            getNextPageParam: (last) => (last.page < last.total_pages ? last.page + 1 : undefined),
          },
        ),
      { wrapper: Wrapper },
    );
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(1));
    await act(() => result.current.fetchNextPage());
    await waitFor(() => expect(result.current.data?.pages.map((page) => page.items[0]?.hash_id)).toEqual(['s1', 's2']));
    expect(result.current.hasNextPage).toBe(false);

    await act(() => invalidateEndpoints(queryClient, [sessionsApi.listSessions]));
    expect(api.find('GET', '/sessions/')).toHaveLength(4);
  });
});
