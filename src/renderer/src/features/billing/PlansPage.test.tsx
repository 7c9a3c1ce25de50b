import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getPlatform, setPlatformForTests } from '../../platform';
import { installFakeApi, page } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { useUserSession } from '../../stores/userSession';
import PlansPage from './PlansPage';
import { type IssueBillingKeyResponse, PortOneSdkLoadError, loadPortOneSdk } from './portOneSdk';

// The boundary to PortOne: the script loader. Its SDK is a stub each test scripts.
vi.mock('./portOneSdk', async (importOriginal) => ({ ...(await importOriginal<typeof import('./portOneSdk')>()), loadPortOneSdk: vi.fn() }));

const starter = { id: 1, ko_name: '스타터', en_name: 'Starter', krw_month_price: 29000, credit: 20000 };
const team = { id: 2, ko_name: '팀', en_name: 'Team', krw_month_price: 99000, credit: 100000 };
const plansBody = { items: [starter, team], provider: { name: 'demo' } };
const portOne = { name: 'portone', store_id: 'store-1', channel_key: 'channel-1', sdk_url: 'https://sdk.portone.test/v2/browser-sdk.js' };
const card = { id: 7, card_name: 'Visa', card_number: '**** **** **** 4242', type: 'card' };
const active = (over: object = {}) => ({
  scope: 'tenant',
  can_manage: true,
  current_plan: starter,
  membership: {
    id: 3,
    plan: starter,
    next_plan: null,
    payment_method: card,
    price: 29000,
    currency: 'KRW',
    status: 'active',
    next_payment_date: '2030-02-28',
    failed_attempts: 0,
    next_attempt_at: null,
    ...over,
  },
  payment_methods: [card],
});
const paid = {
  id: 11,
  kind: 'subscribe',
  status: 'paid',
  plan: starter,
  price: 29000,
  currency: 'KRW',
  credit: 20000,
  usage_start_date: '2030-01-31',
  usage_end_date: '2030-02-28',
  receipt_url: 'http://app.test/api/v1/receipts/abc/',
  failure_reason: null,
  created_at: '2030-01-31T09:00:00Z',
};

afterEach(() => setPlatformForTests(null));

describe('plans page', () => {
  it('shows the plans with KRW prices and credits, the current membership and the purchase history with receipts', async () => {
    installFakeApi({
      'GET /member-billing-plans/': () => Response.json(plansBody),
      'GET /membership/': () => Response.json(active()),
      'GET /membership/payments/': () => Response.json(page([paid])),
    });
    renderScreen(<PlansPage />);
    expect(await screen.findByTestId('plan-2')).toHaveTextContent('₩99,000');
    expect(screen.getByTestId('plan-2')).toHaveTextContent('100,000 credits every month');
    expect(screen.getByTestId('plan-1-action')).toBeDisabled();
    expect(screen.getByTestId('plan-2-action')).toHaveTextContent('Upgrade now');
    expect(screen.getByTestId('membership-summary')).toHaveTextContent('Next payment on Feb 28, 2030.');
    const history = await screen.findByTestId('payment-history');
    expect(within(history).getByRole('link', { name: 'View receipt' })).toHaveAttribute('href', paid.receipt_url);
    expect(history).toHaveTextContent('Valid Jan 31, 2030 – Feb 28, 2030');
  });

  it('tells an organisation member to contact their administrator and offers no paying action', async () => {
    installFakeApi({
      'GET /member-billing-plans/': () => Response.json(plansBody),
      'GET /membership/': () =>
        Response.json({ ...active(), can_manage: false, payment_methods: [], membership: { ...active().membership, payment_method: null } }),
    });
    renderScreen(<PlansPage />);
    expect(await screen.findByTestId('contact-admin')).toHaveTextContent('contact your administrator');
    expect(screen.queryByTestId('plan-2-action')).not.toBeInTheDocument();
    expect(screen.queryByTestId('membership-cancel')).not.toBeInTheDocument();
    expect(screen.queryByText('Purchase history')).not.toBeInTheDocument();
  });

  it('subscribes with the card form: validates the card, sends it once, shows a decline in the dialog', async () => {
    let declined = true;
    const api = installFakeApi({
      'GET /member-billing-plans/': () => Response.json(plansBody),
      'GET /membership/': () => Response.json({ scope: 'member', can_manage: true, current_plan: null, membership: null, payment_methods: [] }),
      'GET /membership/payments/': () => Response.json(page([])),
      'POST /member-billing-plans/1/': () =>
        declined ? Response.json({ code: 'card_declined', message: 'The card was declined.' }, { status: 402 }) : Response.json(active({ plan: starter })),
    });
    const user = userEvent.setup();
    renderScreen(<PlansPage />);
    await user.click(await screen.findByTestId('plan-1-action'));
    await user.click(await screen.findByTestId('card-pay'));
    expect(await screen.findByText('Enter a card number of 13 to 19 digits.')).toBeInTheDocument();
    expect(api.find('POST', '/member-billing-plans/1/')).toHaveLength(0);

    await user.type(screen.getByTestId('card-number'), '4000000000000002');
    expect(screen.getByTestId('card-number')).toHaveValue('4000 0000 0000 0002');
    await user.type(screen.getByTestId('card-expiry'), '12/34');
    await user.type(screen.getByTestId('card-cvc'), '123');
    await user.click(screen.getByTestId('card-pay'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The card was declined.');
    const [sent] = api.find('POST', '/member-billing-plans/1/');
    expect(await sent!.json()).toEqual({ provider: 'demo', card_number: '4000000000000002', expiry: '12/34', cvc: '123' });

    declined = false;
    fireEvent.change(screen.getByTestId('card-number'), { target: { value: '4242424242424242' } });
    await user.click(screen.getByTestId('card-pay'));
    await waitFor(() => expect(screen.queryByTestId('card-pay')).not.toBeInTheDocument());
    expect(api.find('POST', '/member-billing-plans/1/')).toHaveLength(2);
  });

  it('masks the card as it is typed: groups of four up to its length, the expiry as MM/YY', async () => {
    installFakeApi({
      'GET /member-billing-plans/': () => Response.json(plansBody),
      'GET /membership/': () => Response.json({ scope: 'member', can_manage: true, current_plan: null, membership: null, payment_methods: [] }),
      'GET /membership/payments/': () => Response.json(page([])),
    });
    const user = userEvent.setup();
    renderScreen(<PlansPage />);
    await user.click(await screen.findByTestId('plan-1-action'));
    const number = await screen.findByTestId('card-number');
    await user.type(number, '4000000000000002');
    expect(number).toHaveValue('4000 0000 0000 0002');
    // A full number takes no more digits, at its end or in its middle.
    await user.type(number, '224');
    expect(number).toHaveValue('4000 0000 0000 0002');
    await user.type(number, '4', { initialSelectionStart: 1, initialSelectionEnd: 1 });
    expect(number).toHaveValue('4000 0000 0000 0002');
    // American Express has 15 digits, UnionPay up to 19; a paste is cut to fit.
    await user.clear(number);
    await user.type(number, '3782822463100059');
    expect(number).toHaveValue('3782 8224 6310 005');
    await user.clear(number);
    await user.type(number, '6212345678901234567');
    expect(number).toHaveValue('6212 3456 7890 1234 567');
    await user.clear(number);
    await user.click(number);
    await user.paste('4242-4242-4242-4242-99');
    expect(number).toHaveValue('4242 4242 4242 4242');

    const expiry = screen.getByTestId('card-expiry');
    await user.type(expiry, '1230');
    expect(expiry).toHaveValue('12/30');
    await user.type(expiry, '9');
    expect(expiry).toHaveValue('12/30');
    await user.clear(expiry);
    await user.type(expiry, '12/');
    expect(expiry).toHaveValue('12/');
    await user.type(expiry, '{Backspace}');
    expect(expiry).toHaveValue('12');
  });

  it('opens the card form empty for the next plan after a declined card and Cancel', async () => {
    installFakeApi({
      'GET /member-billing-plans/': () => Response.json(plansBody),
      'GET /membership/': () => Response.json({ scope: 'member', can_manage: true, current_plan: null, membership: null, payment_methods: [] }),
      'GET /membership/payments/': () => Response.json(page([])),
      'POST /member-billing-plans/1/': () => Response.json({ code: 'card_declined', message: 'The card was declined.' }, { status: 402 }),
    });
    const user = userEvent.setup();
    renderScreen(<PlansPage />);
    await user.click(await screen.findByTestId('plan-1-action'));
    await user.type(await screen.findByTestId('card-number'), '4000000000000002');
    await user.type(screen.getByTestId('card-expiry'), '1234');
    await user.type(screen.getByTestId('card-cvc'), '123');
    await user.click(screen.getByTestId('card-pay'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The card was declined.');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('card-number')).not.toBeInTheDocument());

    await user.click(screen.getByTestId('plan-2-action'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Team');
    expect(within(dialog).getByTestId('card-number')).toHaveValue('');
    expect(within(dialog).getByTestId('card-expiry')).toHaveValue('');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks before cancelling, naming the end date, and resumes a cancelled membership', async () => {
    let state = active();
    const api = installFakeApi({
      'GET /member-billing-plans/': () => Response.json(plansBody),
      'GET /membership/': () => Response.json(state),
      'GET /membership/payments/': () => Response.json(page([paid])),
      'POST /membership/cancel/': () => {
        state = active({ status: 'cancelled' });
        return Response.json(state);
      },
      'POST /membership/resume/': () => {
        state = active();
        return Response.json(state);
      },
    });
    const user = userEvent.setup();
    renderScreen(<PlansPage />);
    await user.click(await screen.findByTestId('membership-cancel'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Your membership ends on Feb 28, 2030.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel membership' }));
    expect(await screen.findByTestId('membership-ends')).toHaveTextContent('Ends on Feb 28, 2030.');
    expect(api.find('POST', '/membership/cancel/')).toHaveLength(1);
    await user.click(screen.getByTestId('membership-resume'));
    await waitFor(() => expect(screen.getByTestId('membership-cancel')).toBeInTheDocument());
    expect(api.find('POST', '/membership/resume/')).toHaveLength(1);
  });

  describe('with PortOne', () => {
    const requestIssueBillingKey = vi.fn<(request: unknown) => Promise<IssueBillingKeyResponse | undefined>>();
    let subscribed = false;
    const install = () =>
      installFakeApi({
        'GET /member-billing-plans/': () => Response.json({ ...plansBody, provider: portOne }),
        'GET /membership/': () =>
          Response.json(subscribed ? active({ plan: team }) : { scope: 'member', can_manage: true, current_plan: null, membership: null, payment_methods: [] }),
        'GET /membership/payments/': () => Response.json(page([])),
        'POST /member-billing-plans/2/': () => {
          subscribed = true;
          return Response.json(active({ plan: team }));
        },
      });

    beforeEach(() => {
      subscribed = false;
      requestIssueBillingKey.mockReset();
      vi.mocked(loadPortOneSdk).mockReset().mockResolvedValue({ requestIssueBillingKey });
      useUserSession.setState({ member: { id: 5, name: 'Kim Minji', email: 'minji@example.test' } as never });
    });

    it("opens PortOne's card window from the configured SDK and posts the billing key it gives, from the keyboard", async () => {
      requestIssueBillingKey.mockResolvedValue({ transactionType: 'ISSUE_BILLING_KEY', billingKey: 'billing-key-1' });
      const api = install();
      const user = userEvent.setup();
      renderScreen(<PlansPage />);
      await user.click(await screen.findByTestId('plan-2-action'));
      const dialog = await screen.findByRole('dialog');
      expect(dialog).toHaveTextContent("PortOne's secure card window opens");
      expect(within(dialog).queryByTestId('card-number')).not.toBeInTheDocument();
      expect(loadPortOneSdk).not.toHaveBeenCalled();
      await waitFor(() => expect(screen.getByTestId('portone-open')).toHaveFocus());
      await user.keyboard('{Enter}');

      await waitFor(() => expect(screen.queryByTestId('portone-open')).not.toBeInTheDocument());
      expect(loadPortOneSdk).toHaveBeenCalledWith(portOne.sdk_url);
      expect(requestIssueBillingKey).toHaveBeenCalledWith(
        expect.objectContaining({
          storeId: 'store-1',
          channelKey: 'channel-1',
          billingKeyMethod: 'CARD',
          issueId: expect.stringMatching(/^issue-/),
          displayAmount: 99000,
          currency: 'KRW',
          locale: 'EN_US',
          customer: { customerId: '5', fullName: 'Kim Minji', email: 'minji@example.test' },
        }),
      );
      const [sent] = api.find('POST', '/member-billing-plans/2/');
      expect(await sent!.json()).toEqual({ provider: 'portone', billing_key: 'billing-key-1', transaction_type: 'ISSUE_BILLING_KEY' });
      expect(await screen.findByText('Subscribed to Team. Its credits have been added.')).toBeInTheDocument();
    });

    it('a closed window or a refused card sends nothing; a script that does not load can be tried again', async () => {
      requestIssueBillingKey.mockResolvedValueOnce({
        transactionType: 'ISSUE_BILLING_KEY',
        billingKey: '',
        code: 'FAILURE_TYPE_PG',
        message: '사용자가 결제를 취소하였습니다.',
      });
      const api = install();
      const user = userEvent.setup();
      renderScreen(<PlansPage />);
      await user.click(await screen.findByTestId('plan-2-action'));
      await user.click(await screen.findByTestId('portone-open'));
      expect(await screen.findByTestId('portone-error')).toHaveTextContent(
        'The card was not registered (the card window was closed or the card company refused it). Nothing was charged.',
      );
      expect(screen.getByTestId('portone-open')).toHaveFocus();

      vi.mocked(loadPortOneSdk).mockRejectedValueOnce(new PortOneSdkLoadError('blocked'));
      await user.click(screen.getByTestId('portone-open'));
      expect(await screen.findByTestId('portone-error')).toHaveTextContent("PortOne's card window could not be loaded. Check your connection and try again.");
      expect(api.find('POST', '/member-billing-plans/2/')).toHaveLength(0);

      requestIssueBillingKey.mockResolvedValueOnce({ transactionType: 'ISSUE_BILLING_KEY', billingKey: 'billing-key-2' });
      await user.click(screen.getByTestId('portone-open'));
      await waitFor(() => expect(api.find('POST', '/member-billing-plans/2/')).toHaveLength(1));
    });

    it('on the desktop runs no SDK: the plans page opens in the browser', async () => {
      install();
      const openExternal = vi.fn();
      setPlatformForTests({ ...getPlatform(), kind: 'desktop', openExternal });
      const user = userEvent.setup();
      renderScreen(<PlansPage />);
      await user.click(await screen.findByTestId('plan-2-action'));
      expect(await screen.findByRole('dialog')).toHaveTextContent('Cards are registered in your browser');
      await user.click(screen.getByRole('button', { name: 'Continue in browser' }));
      await waitFor(() => expect(openExternal).toHaveBeenCalledWith('http://app.test/dashboard/plans'));
      expect(loadPortOneSdk).not.toHaveBeenCalled();
    });
  });
});
