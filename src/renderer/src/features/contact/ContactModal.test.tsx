import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPlatformForTests } from '../../platform';
import { installFakeApi } from '../../test/fakeApi';
import { testMember } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import { useUserSession } from '../../stores/userSession';
import { ContactModal } from './ContactModal';

afterEach(() => setPlatformForTests(null));

function open() {
  useUserSession.setState({
    member: testMember({ id: 9, member_type: 'individual' }),
  });
  const onClose = vi.fn();
  renderScreen(<ContactModal opened onClose={onClose} />);
  return onClose;
}

describe('contact modal', () => {
  it('checks the inquiry and phone before sending, with the member’s email filled in', async () => {
    const api = installFakeApi({});
    open();
    expect(screen.getByLabelText(/Reply to this email/)).toHaveValue('ada@demo.test');
    await userEvent.type(screen.getByLabelText(/Phone/), 'call me');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Enter a phone number with digits, spaces and + ( ) - only.')).toBeVisible();
    expect(screen.getByLabelText(/Your question/)).toHaveAttribute('aria-invalid', 'true');
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('sends the inquiry, says so and closes', async () => {
    const api = installFakeApi({ 'POST /inquiries/': () => Response.json({ ok: true }) });
    const onClose = open();
    await userEvent.type(screen.getByLabelText(/Your question/), 'How do I buy credits?');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    const [sent] = api.find('POST', '/inquiries/');
    expect(await sent!.json()).toEqual({ inquiry: 'How do I buy credits?', email: 'ada@demo.test' });
    expect(await screen.findByText('Sent. We will answer by email.')).toBeVisible();
  });

  it('keeps the text and explains a refusal beyond the hourly limit', async () => {
    installFakeApi({ 'POST /inquiries/': () => Response.json({ code: 'rate_limited', message: 'slow' }, { status: 429 }) });
    const onClose = open();
    await userEvent.type(screen.getByLabelText(/Your question/), 'Again?');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Too many attempts. Please wait a moment and try again.')).toBeVisible();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByLabelText(/Your question/)).toHaveValue('Again?');
  });
});
