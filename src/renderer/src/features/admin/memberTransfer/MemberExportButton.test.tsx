import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Task } from '../../../../../shared/api/tasks';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import { MemberExportButton } from './MemberExportButton';
import { formatDuration } from './TaskProgress';

afterEach(() => {
  setPlatformForTests(null);
  vi.unstubAllGlobals();
});

const task = (overrides: Partial<Task>): Task => ({
  id: 7,
  kind: 'member-export',
  status: 'running',
  result: null,
  progress: { processed: 0, total: 10 },
  error_code: null,
  created_at: new Date(Date.now() - 4000).toISOString(),
  finished_at: null,
  ...overrides,
});

/** The task endpoint answers each state in turn, then keeps the last. */
function taskSequence(states: Task[]) {
  let call = 0;
  return () => Response.json(states[Math.min(call++, states.length - 1)]);
}

async function openAndStart(format?: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Export members' }));
  if (format) await user.click(await screen.findByText(format));
  await user.click(await screen.findByRole('button', { name: 'Start export' }));
  return user;
}

describe('MemberExportButton', () => {
  it('starts an export in the chosen format, shows its progress with elapsed and estimated time, then downloads the file', async () => {
    const completed = task({
      status: 'completed',
      progress: { processed: 10, total: 10 },
      result: { format: 'xlsx', file_name: 'members-2026-01-01.xlsx', rows: 10, download_path: '/admin/members/export-task/7/download/' },
    });
    const api = installFakeApi({
      'GET /admin/members/export-task/': () => Response.json(task({})),
      'GET /tasks/7/': taskSequence([task({ progress: { processed: 4, total: 10 } }), completed]),
      'GET /admin/members/export-task/7/download/': () => new Response('file', { headers: { 'content-type': 'application/octet-stream' } }),
    });
    const click = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:export'), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(click);
    renderScreen(<MemberExportButton />);
    const user = await openAndStart('Excel (XLSX)');
    expect(api.find('GET', '/admin/members/export-task/')[0]!.url).toContain('format=xlsx');
    expect(await screen.findByText('4 of 10 members')).toBeInTheDocument();
    expect(screen.getByText(/^Elapsed \d:\d\d · about \d:\d\d left$/)).toBeInTheDocument();
    expect(await screen.findByText('The export is ready: 10 members.', {}, { timeout: 3000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    expect(api.find('GET', '/export-task/7/download/')).toHaveLength(1);
  });

  it.each([
    ['timed_out', 'The export took too long and was stopped. Please try again later.'],
    [null, 'The export failed. Please try again.'],
  ])('says why a failed export has no file (error_code %s)', async (code, message) => {
    installFakeApi({
      'GET /admin/members/export-task/': () => Response.json(task({})),
      'GET /tasks/7/': () => Response.json(task({ status: 'failed', error_code: code })),
    });
    renderScreen(<MemberExportButton />);
    await openAndStart();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Export again' })).toBeInTheDocument();
  });

  it('says the file is missing when the download answers export_file_missing (spec §8 missing file url)', async () => {
    installFakeApi({
      'GET /admin/members/export-task/': () => Response.json(task({})),
      'GET /tasks/7/': () => Response.json(task({ status: 'completed', result: { format: 'csv', file_name: 'm.csv', rows: 1, download_path: '/x/' } })),
      'GET /admin/members/export-task/7/download/': () => Response.json({ code: 'export_file_missing', message: 'gone' }, { status: 404 }),
    });
    renderScreen(<MemberExportButton />);
    const user = await openAndStart();
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The export finished, but its file could not be found. Please export again.');
  });

  it('formats durations as m:ss and h:mm:ss', () => {
    expect(formatDuration(65)).toBe('1:05');
    expect(formatDuration(3725)).toBe('1:02:05');
  });
});
