import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { parseWhitelistEmails } from '../../../../../shared/domain/ssoWhitelist';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi, page } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import SsoWhitelistPage from './SsoWhitelistPage';

afterEach(() => setPlatformForTests(null));

describe('SSO whitelist page', () => {
  it('reads emails from CSV text: header and name cells skipped, duplicates once, invalid ones counted', () => {
    expect(parseWhitelistEmails('email,name\n"Ann@X.test",Ann\nann@x.test;bob@x.test\tbroken@\n')).toEqual({
      emails: ['ann@x.test', 'bob@x.test'],
      invalid: ['broken@'],
    });
  });

  it('reports what pasted text holds, then sends the valid emails and says what was added', async () => {
    const api = installFakeApi({
      'GET /admin/sso-member-whitelist/': () => Response.json(page([{ id: 1, email: 'old@x.test', name: null, created_at: '2026-01-01T00:00:00.000Z' }])),
      'POST /admin/sso-member-whitelist/bulk-upsert/': () => Response.json({ added: 1, existing: 1, invalid: [] }),
    });
    renderScreen(<SsoWhitelistPage />);
    expect(await screen.findByText('old@x.test')).toBeVisible();
    const text = screen.getByTestId('whitelist-text');
    await userEvent.type(text, 'nobody@home');
    expect(screen.getByText('No valid emails found.')).toBeVisible();
    expect(screen.getByTestId('whitelist-add')).toBeDisabled();

    await userEvent.clear(text);
    await userEvent.type(text, 'new@x.test old@x.test bad@x');
    expect(screen.getByTestId('whitelist-check')).toHaveTextContent('2 emails found.');
    expect(screen.getByTestId('whitelist-check')).toHaveTextContent('1 invalid address is skipped: bad@x');
    await userEvent.click(screen.getByRole('button', { name: 'Add 2 emails' }));
    expect(await screen.findByText('1 added, 1 already on the list.')).toBeVisible();
    expect(await api.find('POST', '/bulk-upsert/')[0]!.json()).toEqual({ sso_member_whitelist: ['new@x.test', 'old@x.test'] });
  });
});
