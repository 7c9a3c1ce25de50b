import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi, page } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import SecurityPage from './SecurityPage';

afterEach(() => setPlatformForTests(null));

const settings = { phone: 'off', email: 'off', resident_number: 'off', credit_card: 'off', international_phone: 'off' };
const word = (id: number, text: string) => ({ id, word: text, created_at: '2025-03-07T10:00:00Z' });

describe('restricted words and privacy page', () => {
  it('says under the field when a word exists already (409), and refuses a blank one without a request', async () => {
    const api = installFakeApi({
      'GET /admin/pii-settings/': () => Response.json(settings),
      'GET /admin/restricted-words/': () => Response.json(page([word(1, 'Falcon')])),
      'POST /admin/restricted-words/': () => Response.json({ code: 'conflict', message: 'exists' }, { status: 409 }),
    });
    const user = userEvent.setup();
    renderScreen(<SecurityPage />);
    expect(await screen.findByText('Falcon')).toBeInTheDocument();

    const input = screen.getByRole('textbox', { name: 'New restricted word' });
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(api.find('POST', '/admin/restricted-words/')).toHaveLength(0);

    await user.type(input, 'falcon{Enter}');
    expect(await screen.findByText('This restricted word already exists.')).toBeInTheDocument();
    expect(input).toHaveValue('falcon');
  });

  it('saves the PII settings with a success toast', async () => {
    const api = installFakeApi({
      'GET /admin/pii-settings/': () => Response.json(settings),
      'GET /admin/restricted-words/': () => Response.json(page([])),
      'PATCH /admin/pii-settings/': async (request) => Response.json({ ...settings, ...(await request.json()) }),
    });
    const user = userEvent.setup();
    renderScreen(<SecurityPage />);
    const phone = await screen.findByRole('radiogroup', { name: 'Phone number (11 digits)' });
    expect(screen.getByText('No restricted words yet.')).toBeInTheDocument();
    await user.click(within(phone).getByText('Block'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Privacy settings saved.')).toBeInTheDocument();
    const [patch] = api.find('PATCH', '/admin/pii-settings/');
    expect(await patch!.json()).toMatchObject({ phone: 'block', email: 'off' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
  });

  it('searches as the admin types, keeping the search in the URL and a space typed between words', async () => {
    const api = installFakeApi({
      'GET /admin/pii-settings/': () => Response.json(settings),
      'GET /admin/restricted-words/': () => Response.json(page([word(2, 'two words')])),
    });
    const user = userEvent.setup();
    const { router } = renderScreen(<SecurityPage />);
    const box = await screen.findByRole('searchbox', { name: 'Search words' });
    await user.type(box, 'two ');
    await waitFor(() => expect(router.state.location.search).toContain('search=two'));
    // The URL now says `two`: the box keeps the space typed after it.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(box).toHaveValue('two ');
    await user.type(box, 'words');
    expect(box).toHaveValue('two words');
    await waitFor(() => expect(router.state.location.search).toContain('search=two+words'));
    await waitFor(() => expect(api.requests.some((request) => request.url.includes('search_term=two+words'))).toBe(true));
  });
});
