import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../../../shared/api/tasks';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import MemberUploadPage from './MemberUploadPage';

afterEach(() => setPlatformForTests(null));

const uploadTask = (overrides: Partial<Task>): Task => ({
  id: 9,
  kind: 'member-upload',
  status: 'completed',
  result: null,
  progress: { processed: 3, total: 3 },
  error_code: null,
  created_at: new Date().toISOString(),
  finished_at: null,
  ...overrides,
});

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('MemberUploadPage', () => {
  it('sends the chosen file and shows the warning result with each failed row and its reason', async () => {
    const api = installFakeApi({
      'POST /admin/members/bulk-upload/': () => Response.json(uploadTask({ status: 'running', progress: { processed: 0, total: 3 } })),
      'GET /tasks/9/': () =>
        Response.json(
          uploadTask({
            result: {
              outcome: 'warning',
              total: 3,
              invited: 1,
              failed: [
                { row: 3, email: 'member@demo.test', reason: 'already_exists', field: 'email' },
                { row: 4, email: 'x@demo.test', reason: 'missing_required_field', field: 'Department' },
              ],
            },
          }),
        ),
    });
    const user = userEvent.setup();
    renderScreen(<MemberUploadPage />, { route: '/admin/members/upload' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Member bulk upload' })).toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Upload and invite' });
    expect(send).toBeDisabled();
    await user.upload(fileInput(), new File(['name,email\n'], 'members.csv', { type: 'text/csv' }));
    expect(screen.getByTestId('selected-file')).toHaveTextContent('members.csv');
    await user.click(send);
    expect(await screen.findByText('1 of 3 members were invited; 2 rows failed.')).toBeInTheDocument();
    const table = screen.getByTestId('failed-rows');
    expect(within(table).getByText('Already a member')).toBeInTheDocument();
    expect(within(table).getByText('Department is required.')).toBeInTheDocument();
    expect(api.find('POST', '/admin/members/bulk-upload/')).toHaveLength(1);
  });

  it('explains a refused file with the column it is about', async () => {
    installFakeApi({
      'POST /admin/members/bulk-upload/': () =>
        Response.json({ code: 'missing_column', message: 'no column', details: { field_name: 'Department' } }, { status: 422 }),
    });
    const user = userEvent.setup();
    renderScreen(<MemberUploadPage />, { route: '/admin/members/upload' });
    await user.upload(fileInput(), new File(['name\n'], 'members.csv', { type: 'text/csv' }));
    await user.click(await screen.findByRole('button', { name: 'Upload and invite' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file has no "Department" column. Please use the template.');
  });

  it('shows the limit message when the task stopped at the plan’s invitation limit, from the task in the URL', async () => {
    installFakeApi({ 'GET /tasks/9/': () => Response.json(uploadTask({ status: 'failed', error_code: 'invitation_limit_reached' })) });
    const user = userEvent.setup();
    renderScreen(<MemberUploadPage />, { route: '/admin/members/upload?task=9' });
    expect(await screen.findByTestId('upload-outcome')).toHaveTextContent("The plan's invitation limit was reached");
    await user.click(screen.getByRole('button', { name: 'Upload another file' }));
    expect(await screen.findByRole('button', { name: 'Upload and invite' })).toBeInTheDocument();
  });
});
