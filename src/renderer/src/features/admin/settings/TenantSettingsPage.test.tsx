import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminCustomField, AdminPolicy, AdminTaskMode } from '../../../../../shared/api';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi } from '../../../test/fakeApi';
import { testCustomField } from '../../../test/fixtures';
import { renderScreen } from '../../../test/render';
import { useUserSession } from '../../../stores/userSession';
import TenantSettingsPage from './TenantSettingsPage';

const initialLanguage = useUserSession.getState().language;
afterEach(() => {
  setPlatformForTests(null);
  useUserSession.setState({ language: initialLanguage });
});

const settings = { tenant_name: 'Acme', logo_url: null, support_email: null, manual_url: null, password_min_length: 8 };
const field = (id: number, name: string, flags: Partial<AdminCustomField> = {}): AdminCustomField => ({
  ...testCustomField(id, name),
  value_count: 0,
  ...flags,
});
const policy = (id: number, name: string, flags: Partial<AdminPolicy> = {}): AdminPolicy => ({
  id,
  policy_name: name,
  kind: 'markdown',
  is_mandatory: true,
  markdown_content: 'Terms',
  video_url: null,
  file_url: null,
  file_id: null,
  file_name: null,
  ...flags,
});

const mode = (id: number, ko_name: string, en_name: string): AdminTaskMode => ({
  id,
  ko_name,
  en_name,
  mode_name: en_name || ko_name,
  instructions: `Task mode ${id}.`,
});

function routes(overrides: Record<string, (request: Request) => Response | Promise<Response>> = {}) {
  return installFakeApi({
    'GET /admin/tenant-settings/': () => Response.json(settings),
    'GET /admin/custom-fields/': () => Response.json({ items: [field(1, 'Department', { is_required: true, value_count: 3 })] }),
    'GET /admin/policies/': () => Response.json({ items: [policy(5, 'Terms of service')] }),
    'GET /admin/task-modes/': () => Response.json({ items: [mode(3, '요약', 'Summary'), mode(4, '', 'Outline')] }),
    ...overrides,
  });
}

const fileInputIn = (element: HTMLElement) => element.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('admin workspace settings', () => {
  it('raises the minimum password length within 8 to 64, refusing other values without a request (issue 20)', async () => {
    const api = routes({ 'PATCH /admin/tenant-settings/': async (request) => Response.json({ ...settings, ...(await request.json()) }) });
    const user = userEvent.setup();
    renderScreen(<TenantSettingsPage />);
    const card = await screen.findByRole('region', { name: 'Password rule' });
    const input = await within(card).findByRole('textbox', { name: /Minimum password length/ });
    expect(input).toHaveValue('8');
    for (const wrong of ['7', '65']) {
      await user.clear(input);
      await user.type(input, wrong);
      await user.click(within(card).getByRole('button', { name: 'Save' }));
      expect(await within(card).findByText('Enter a whole number from 8 to 64.')).toBeInTheDocument();
    }
    expect(api.find('PATCH', '/admin/tenant-settings/')).toHaveLength(0);
    await user.clear(input);
    await user.type(input, '12');
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Password rule saved.')).toBeInTheDocument();
    expect(await api.find('PATCH', '/admin/tenant-settings/')[0]!.json()).toEqual({ password_min_length: 12 });
  });

  it('saves the name, clears a blank support address, refuses a bad manual link without a request, and uploads a logo', async () => {
    const api = routes({
      'PATCH /admin/tenant-settings/': async (request) => Response.json({ ...settings, ...(await request.json()) }),
      'POST /admin/tenant-settings/logo/': () => Response.json({ ...settings, logo_url: '/api/v1/tenants/logo/9/' }),
    });
    const user = userEvent.setup();
    renderScreen(<TenantSettingsPage />);
    const branding = await screen.findByRole('region', { name: 'Branding and support' });
    const name = await within(branding).findByRole('textbox', { name: /Workspace name/ });
    await user.clear(name);
    await user.type(name, 'Acme Research');
    await user.type(within(branding).getByRole('textbox', { name: 'User manual link' }), 'javascript:alert(1)');
    await user.click(within(branding).getByRole('button', { name: 'Save' }));
    expect(await within(branding).findByText('Enter a web address starting with https:// or http://.')).toBeInTheDocument();
    expect(api.find('PATCH', '/admin/tenant-settings/')).toHaveLength(0);

    const manual = within(branding).getByRole('textbox', { name: 'User manual link' });
    await user.clear(manual);
    await user.type(manual, 'https://docs.acme.example');
    await user.click(within(branding).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(await api.find('PATCH', '/admin/tenant-settings/')[0]!.json()).toEqual({
      tenant_name: 'Acme Research',
      support_email: null,
      manual_url: 'https://docs.acme.example',
    });

    await user.upload(fileInputIn(branding), new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByText('Logo saved.')).toBeInTheDocument();
    const preview = within(screen.getByTestId('logo-preview')).getByRole('img', { name: 'Acme logo' });
    expect(preview).toHaveAttribute('src', 'http://app.test/api/v1/tenants/logo/9/');
    expect(api.find('POST', '/admin/tenant-settings/logo/')).toHaveLength(1);
    expect(within(branding).getByRole('button', { name: 'Replace logo' })).toBeInTheDocument();
  });

  it('adds a custom field with its flags, says under the name when it is taken, and warns that deleting removes the values', async () => {
    let taken = true;
    const api = routes({
      'POST /admin/custom-fields/': async (request) =>
        taken
          ? Response.json({ code: 'field_name_taken', message: 'taken', details: { field: 'en_name', field_name: 'Team' } }, { status: 409 })
          : Response.json(field(2, 'Team', (await request.json()) as Partial<AdminCustomField>)),
      'DELETE /admin/custom-fields/1/': () => Response.json({ ok: true }),
    });
    const user = userEvent.setup();
    renderScreen(<TenantSettingsPage />);
    const table = await screen.findByTestId('custom-fields');
    expect(within(table).getByText('Department')).toBeInTheDocument();
    expect(within(table).getByText('Required')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add field' }));
    const dialog = await screen.findByRole('dialog', { name: 'New custom field' });
    // Neither name: the rule is said under the Korean one, and nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('textbox', { name: 'Korean name' })).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText('Enter a Korean or an English name.')).toBeInTheDocument();
    expect(api.find('POST', '/admin/custom-fields/')).toHaveLength(0);

    // An English name alone is enough; the one in use is said under it.
    const english = within(dialog).getByRole('textbox', { name: 'English name' });
    await user.type(english, 'Team');
    await user.click(within(dialog).getByRole('radio', { name: 'Number' }));
    await user.click(within(dialog).getByRole('checkbox', { name: /Unique/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A field with this name exists already.')).toBeInTheDocument();
    expect(english).toHaveAttribute('aria-invalid', 'true');

    taken = false;
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Field added.')).toBeInTheDocument();
    expect(await api.find('POST', '/admin/custom-fields/')[1]!.json()).toEqual({
      ko_name: '',
      en_name: 'Team',
      field_type: 'number',
      is_signup_field: true,
      is_required: false,
      is_editable: true,
      is_unique: true,
      is_searchable: false,
    });

    await user.click(within(table).getByRole('button', { name: 'Delete Department' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete "Department"?' });
    expect(confirm).toHaveTextContent('The field and the values 3 members gave for it will be deleted.');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Field deleted.')).toBeInTheDocument();
    expect(api.find('DELETE', '/admin/custom-fields/1/')).toHaveLength(1);
  });

  it("shows each field's name in the interface language, else its other name, and edits both names", async () => {
    useUserSession.setState({ language: 'ko' });
    const api = routes({
      'GET /admin/custom-fields/': () =>
        Response.json({ items: [field(1, 'Shift'), field(2, 'Department', { ko_name: '부서' }), field(3, '', { ko_name: '직급', field_name: '직급' })] }),
      'PATCH /admin/custom-fields/1/': () => Response.json({ code: 'field_name_required', message: 'none' }, { status: 422 }),
    });
    const user = userEvent.setup();
    renderScreen(<TenantSettingsPage />);
    const rows = await screen.findAllByTestId('custom-field-row');
    // A Korean screen: the English name where there is no Korean one; the English one under a Korean name.
    expect(rows.map((row) => row.firstElementChild!.textContent)).toEqual(['Shift', '부서Department', '직급']);

    await user.click(within(rows[1]!).getByRole('button', { name: 'Edit 부서' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit custom field' });
    expect(within(dialog).getByRole('textbox', { name: 'Korean name' })).toHaveValue('부서');
    expect(within(dialog).getByRole('textbox', { name: 'English name' })).toHaveValue('Department');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // The server refuses a field left without a name: said under the names, not in a toast.
    await user.click(within(rows[0]!).getByRole('button', { name: 'Edit Shift' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit custom field' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter a Korean or an English name.')).toBeInTheDocument();
    expect(await api.find('PATCH', '/admin/custom-fields/1/')[0]!.json()).toMatchObject({ ko_name: '', en_name: 'Shift' });
  });

  it('edits task modes by either name: a Korean screen shows the Korean name, else the English one; a taken name is said under it', async () => {
    useUserSession.setState({ language: 'ko' });
    const api = routes({
      'POST /admin/task-modes/': () =>
        Response.json({ code: 'task_mode_name_taken', message: 'taken', details: { field: 'en_name', field_name: 'Outline' } }, { status: 409 }),
    });
    const user = userEvent.setup();
    renderScreen(<TenantSettingsPage />);
    const card = await screen.findByRole('region', { name: 'Task modes' });
    const rows = await within(card).findAllByTestId('task-mode-row');
    expect(rows.map((row) => row.firstElementChild!.textContent)).toEqual(['요약Summary', 'Outline']);

    await user.click(within(card).getByRole('button', { name: 'Add task mode' }));
    const dialog = await screen.findByRole('dialog', { name: 'New task mode' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Enter a Korean or an English name.')).toBeInTheDocument();
    expect(api.find('POST', '/admin/task-modes/')).toHaveLength(0);
    const english = within(dialog).getByRole('textbox', { name: 'English name' });
    await user.type(english, 'outline');
    await user.type(within(dialog).getByRole('textbox', { name: /Instructions/ }), 'List the main points.');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A task mode with this name exists already.')).toBeInTheDocument();
    expect(english).toHaveAttribute('aria-invalid', 'true');
    expect(await api.find('POST', '/admin/task-modes/')[0]!.json()).toEqual({ ko_name: '', en_name: 'outline', instructions: 'List the main points.' });
  });

  it('names the shared value when a field cannot become unique (409)', async () => {
    routes({
      'PATCH /admin/custom-fields/1/': () =>
        Response.json({ code: 'values_not_unique', message: 'shared', details: { field_name: 'Department', value: 'Sales' } }, { status: 409 }),
    });
    const user = userEvent.setup();
    renderScreen(<TenantSettingsPage />);
    await user.click(await screen.findByRole('button', { name: 'Edit Department' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit custom field' });
    await user.click(within(dialog).getByRole('checkbox', { name: /Unique/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Members share the value "Sales" of Department, so it cannot be made unique. Make their values different first.'),
    ).toBeInTheDocument();
  });

  it('adds a document policy: the document is uploaded first, then the policy names it', async () => {
    const api = routes({
      'POST /admin/policies/files/': () => Response.json({ file_id: 44, name: 'terms.pdf', size: 900, type: 'application/pdf' }),
      'POST /admin/policies/': async (request) => Response.json(policy(6, 'Privacy', (await request.json()) as Partial<AdminPolicy>)),
    });
    const user = userEvent.setup();
    renderScreen(<TenantSettingsPage />);
    await user.click(await screen.findByRole('button', { name: 'Add policy' }));
    const dialog = await screen.findByRole('dialog', { name: 'New policy' });
    await user.type(within(dialog).getByRole('textbox', { name: /Policy name/ }), 'Privacy');
    await user.click(within(dialog).getByRole('radio', { name: 'Document' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Upload the document.')).toBeInTheDocument();

    await user.upload(fileInputIn(dialog), new File(['%PDF-1.4'], 'terms.pdf', { type: 'application/pdf' }));
    expect(await within(dialog).findByTestId('policy-file-name')).toHaveTextContent('terms.pdf');
    await user.click(within(dialog).getByRole('switch', { name: /Mandatory/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Policy added.')).toBeInTheDocument();
    const [created] = api.find('POST', '/admin/policies/').filter((request) => request.url.endsWith('/admin/policies/'));
    expect(await created!.json()).toEqual({
      policy_name: 'Privacy',
      kind: 'file',
      is_mandatory: false,
      markdown_content: null,
      video_url: null,
      file_id: 44,
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New policy' })).not.toBeInTheDocument());
  });
});
