import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../platform';
import { installFakeApi } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { PiiWarning } from './PiiWarning';

afterEach(() => setPlatformForTests(null));

const settings = { phone: 'block', email: 'mask', resident_number: 'off', credit_card: 'mask', international_phone: 'off' };

describe('PiiWarning', () => {
  it('names what will be blocked before what will be masked', async () => {
    installFakeApi({ 'GET /pii-settings/': () => Response.json(settings) });
    renderScreen(<PiiWarning text="010-1234-5678 or kim@example.com" />);
    expect(await screen.findByText('Your message contains a phone number. It will be blocked when you send it.')).toHaveAttribute('role', 'status');
  });

  it('names masked kinds, and says nothing of kinds the tenant allows', async () => {
    installFakeApi({ 'GET /pii-settings/': () => Response.json(settings) });
    renderScreen(<PiiWarning text="kim@example.com, 1234 5678 9012 3456, 900101-1234567" />);
    expect(await screen.findByText('Your message contains an email address and a card number. It will be masked before it is sent.')).toBeInTheDocument();
  });

  it('asks for nothing while the draft holds nothing personal', () => {
    const api = installFakeApi({});
    renderScreen(<PiiWarning text="order 010123456789" />);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    expect(api.fetch).not.toHaveBeenCalled();
  });
});
