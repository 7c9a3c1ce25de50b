import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomFieldValue } from '../../../../shared/api';
import { setPlatformForTests } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { installFakeApi } from '../../test/fakeApi';
import { testMember } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import { CustomFieldsSection } from './CustomFieldsSection';

const field = (id: number, name: string, flags: Partial<CustomFieldValue> = {}): CustomFieldValue => ({
  custom_field_id: id,
  ko_name: '',
  en_name: name,
  field_name: name,
  field_type: 'text',
  is_required: false,
  is_editable: true,
  is_unique: false,
  value: null,
  ...flags,
});
const fields = [
  field(1, 'Department', { ko_name: '부서', is_required: true, value: 'Research' }),
  field(2, 'Employee number', { field_type: 'number', is_unique: true, value: '7' }),
  field(3, 'Grade', { is_editable: false, value: 'Senior' }),
];
const member = testMember({ name: 'Mina', email: 'mina@example.test', custom_fields: fields });

beforeEach(() => useUserSession.getState().setMember(member));
afterEach(() => {
  setPlatformForTests(null);
  useUserSession.setState({ member: null, language: initialLanguage });
});
const initialLanguage = useUserSession.getState().language;

describe('custom fields on My page', () => {
  it('edits only the editable fields by the sign-up rules, shows the others read-only, and saves', async () => {
    const api = installFakeApi({
      'PATCH /members/7/': async (request) => {
        const body = (await request.json()) as { custom_fields: { custom_field_id: number; value: string }[] };
        const values = new Map(body.custom_fields.map((entry) => [entry.custom_field_id, entry.value]));
        return Response.json({ ...member, custom_fields: fields.map((f) => ({ ...f, value: values.get(f.custom_field_id) ?? f.value })) });
      },
    });
    const user = userEvent.setup();
    renderScreen(<CustomFieldsSection fields={fields} />);
    expect(screen.getByTestId('custom-field-readonly-3')).toHaveTextContent('GradeSeniorOnly an administrator can change this.');
    expect(screen.queryByRole('textbox', { name: 'Grade' })).not.toBeInTheDocument();

    const department = screen.getByRole('textbox', { name: /Department/ });
    const number = screen.getByRole('textbox', { name: /Employee number/ });
    await user.clear(department);
    await user.clear(number);
    await user.type(number, 'seven');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Department is required.')).toBeInTheDocument();
    expect(screen.getByText('Employee number must be a number.')).toBeInTheDocument();
    expect(api.find('PATCH', '/members/7/')).toHaveLength(0);

    await user.type(department, 'Sales');
    await user.clear(number);
    await user.type(number, '12');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your information has been saved.');
    expect(await api.find('PATCH', '/members/7/')[0]!.json()).toEqual({
      custom_fields: [
        { custom_field_id: 1, value: 'Sales' },
        { custom_field_id: 2, value: '12' },
      ],
    });
    expect(useUserSession.getState().member?.custom_fields[0]?.value).toBe('Sales');
  });

  it('says under the field when the server refuses a value (409 value already used)', async () => {
    installFakeApi({
      'PATCH /members/7/': () =>
        Response.json({ code: 'value_already_used', message: 'used', details: { field_name: 'Employee number', custom_field_id: 2 } }, { status: 409 }),
    });
    const user = userEvent.setup();
    renderScreen(<CustomFieldsSection fields={fields} />);
    const number = screen.getByRole('textbox', { name: /Employee number/ });
    await user.clear(number);
    await user.type(number, '8');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Employee number is already used by another member.')).toBeInTheDocument();
    expect(number).toHaveAttribute('aria-invalid', 'true');
  });

  it('names each field in the interface language, else by its other name, in labels and messages', async () => {
    useUserSession.setState({ language: 'ko' });
    installFakeApi({
      // The server names the field in the member's stored language; the screen names it as it shows it.
      'PATCH /members/7/': () =>
        Response.json({ code: 'required_field_missing', message: 'missing', details: { field_name: 'Department', custom_field_id: 1 } }, { status: 422 }),
    });
    const user = userEvent.setup();
    renderScreen(<CustomFieldsSection fields={fields} />);
    // Korean where the field has a Korean name; the English name where it has none.
    const department = screen.getByRole('textbox', { name: /부서/ });
    expect(screen.getByRole('textbox', { name: /Employee number/ })).toBeInTheDocument();
    expect(screen.getByTestId('custom-field-readonly-3')).toHaveTextContent(/^Grade/);
    await user.clear(department);
    await user.type(department, 'x');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('부서 is required.')).toBeInTheDocument();
    expect(department).toHaveAttribute('aria-invalid', 'true');
  });
});
