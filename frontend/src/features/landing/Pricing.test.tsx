import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Me } from '@/shared/api';
import { formatLocalDate } from '@/shared/format';
import { ProfileProvider } from '@/shared/profile';
import { authValue, meValue, profileValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import {
  CHECKOUT_FAILED,
  CHECKOUT_PATH,
  checkoutErrorText,
  PRICE_NOT_CONFIGURED,
  priceIdConfigured,
  Pricing,
} from './Pricing';
import { browser } from './pricing';
import { PLANS, plansHandler } from './testUtils';

const ana = { uid: 'local-abc', email: 'ana@example.com' };
const endDate = '2027-02-20T10:00:00Z';
const activeMe = meValue({
  subscription: { status: 'active', label: 'Active', plan: 'quarterly', endDate, daysLeft: 90 },
});

function renderPricing(options: Parameters<typeof renderWithApp>[1] = {}) {
  return renderWithApp(<></>, {
    ...options,
    routes: [
      { path: '/', element: <Pricing /> },
      { path: '/section/:category', element: <p>section page</p> },
    ],
  });
}

const card = (name: string) => {
  const heading = screen.getByRole('heading', { name, level: 3 });
  const li = heading.closest('li');
  if (!li) throw new Error('no card');
  return within(li);
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Pricing: plans from the server', () => {
  it('shows a skeleton while the plans load, then the three plans', async () => {
    server.use(
      http.get('/api/plans', async () => {
        await delay(50);
        return HttpResponse.json(PLANS);
      }),
    );
    renderPricing();
    expect(screen.getByRole('status')).toHaveTextContent('Loading plans…');
    expect(document.querySelectorAll('.plan-skeleton')).toHaveLength(3);

    await screen.findByRole('heading', { name: 'Quarterly' });
    expect(document.querySelectorAll('.plan-skeleton')).toHaveLength(0);
    expect(card('Free').getByText('$0')).toBeInTheDocument();
    expect(card('1 Month').getByText('$34')).toBeInTheDocument();
    expect(card('1 Month').getByText('CAD')).toBeInTheDocument();
    expect(card('1 Month').getByText('30 days of access')).toBeInTheDocument();
    expect(card('Quarterly').getByText('$69')).toBeInTheDocument();
    expect(card('Quarterly').getByText('3 months (90 days) of access')).toBeInTheDocument();
    expect(card('Quarterly').getByText('about $23 per month')).toBeInTheDocument();
    expect(card('Quarterly').getByText('saves $33 against monthly')).toBeInTheDocument();
    expect(card('1 Month').queryByText(/per month/)).not.toBeInTheDocument();
  });

  it('lists what the free plan and the paid plans include', async () => {
    server.use(plansHandler());
    renderPricing();
    await screen.findByRole('heading', { name: 'Free' });
    for (const line of [
      '1 Reading exam',
      '1 Listening exam',
      '1 Writing exam with 3 AI corrections',
      '1 Speaking exam with 3 AI corrections',
      'No credit card',
    ]) {
      expect(card('Free').getByText(line)).toBeInTheDocument();
    }
    for (const name of ['1 Month', 'Quarterly']) {
      expect(card(name).getByText('All mock exams in each section (10 per section)')).toBeInTheDocument();
      expect(card(name).getByText('Unlimited AI writing corrections')).toBeInTheDocument();
      expect(card(name).getByText('Unlimited AI speaking practice')).toBeInTheDocument();
      expect(card(name).getByText('One-time payment, no renewal')).toBeInTheDocument();
    }
  });

  it('computes the quarterly figures from the plan data', async () => {
    server.use(
      plansHandler(PLANS.map((p) => (p.id === 'quarterly' ? { ...p, priceCents: 7500 } : p))),
    );
    renderPricing();
    expect(await screen.findByText('about $25 per month')).toBeInTheDocument();
    expect(screen.getByText('saves $27 against monthly')).toBeInTheDocument();
  });

  it('shows a readable notice when the plans cannot be loaded, and retries', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get('/api/plans', () => HttpResponse.json({ error: 'boom' }, { status: 500 })));
    renderPricing();
    expect(await screen.findByRole('alert')).toHaveTextContent("We couldn’t load the plans just now.");

    server.use(plansHandler());
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Quarterly' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the refund line with the configured support address and the trust panel', async () => {
    server.use(plansHandler());
    renderPricing();
    const mail = screen.getByRole('link', { name: 'support@example.com' });
    expect(mail).toHaveAttribute('href', 'mailto:support@example.com');
    expect(mail.closest('p')).toHaveTextContent(
      'Get a full refund if you write to support@example.com within 7 days, no questions asked.',
    );
    const trust = screen.getByRole('complementary', { name: 'Payment and refunds' });
    expect(trust).toHaveTextContent('Secure card payment');
    expect(trust).toHaveTextContent('We never store card data');
    expect(trust).toHaveTextContent('One-time payment');
    expect(trust).toHaveTextContent('7-day refund');
    await screen.findByRole('heading', { name: 'Quarterly' });
  });
});

describe('Pricing: buttons', () => {
  it('asks a visitor to sign in; Try Free remembers the reading section', async () => {
    server.use(plansHandler());
    const auth = authValue();
    renderPricing({ auth });
    await userEvent.click(await screen.findByRole('button', { name: 'Try Free' }));
    expect(auth.login).toHaveBeenLastCalledWith('/section/reading');

    await userEvent.click(screen.getByRole('button', { name: 'Get 1 Month' }));
    expect(auth.login).toHaveBeenLastCalledWith();
    await userEvent.click(screen.getByRole('button', { name: 'Get Quarterly' }));
    expect(auth.login).toHaveBeenCalledTimes(3);
  });

  it('disables the paid buttons for a subscriber and says when the plan ends', async () => {
    server.use(plansHandler());
    renderPricing({ auth: authValue({ user: ana }), profile: profileValue(activeMe) });
    const subscribed = await screen.findAllByRole('button', { name: 'Subscribed' });
    expect(subscribed).toHaveLength(2);
    for (const b of subscribed) expect(b).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Try Free' })).toBeEnabled();
    expect(screen.getByRole('status')).toHaveTextContent(
      new RegExp(`^You are currently subscribed\\. Your plan ends on ${formatLocalDate(endDate)}\\.$`),
    );
  });

  it('does not show the subscribed line to a free user', async () => {
    server.use(plansHandler());
    renderPricing({ auth: authValue({ user: ana }), profile: profileValue(meValue()) });
    expect(await screen.findByRole('button', { name: 'Get 1 Month' })).toBeEnabled();
    expect(screen.queryByText(/You are currently subscribed/)).not.toBeInTheDocument();
  });

  it('takes a signed-in user to the reading section with Try Free', async () => {
    server.use(plansHandler());
    const auth = authValue({ user: ana });
    const { router } = renderPricing({ auth, profile: profileValue(meValue()) });
    await userEvent.click(await screen.findByRole('button', { name: 'Try Free' }));
    expect(router.state.location.pathname).toBe('/section/reading');
    expect(auth.login).not.toHaveBeenCalled();
  });

  it('starts a checkout once with the price id, the user id and e-mail, shows it is busy, and goes to the payment page', async () => {
    const go = vi.spyOn(browser, 'go').mockImplementation(() => undefined);
    const bodies: unknown[] = [];
    const contentTypes: (string | null)[] = [];
    server.use(
      plansHandler(),
      http.post(CHECKOUT_PATH, async ({ request }) => {
        bodies.push(await request.json());
        contentTypes.push(request.headers.get('Content-Type'));
        await delay(50);
        return HttpResponse.json({ url: 'http://127.0.0.1:8080/checkout/cs_local_1' });
      }),
    );
    renderPricing({ auth: authValue({ user: ana }), profile: profileValue(meValue()) });
    const button = await screen.findByRole('button', { name: 'Get Quarterly' });
    await userEvent.dblClick(button);
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveTextContent('Opening secure checkout…');

    await waitFor(() => expect(go).toHaveBeenCalledWith('http://127.0.0.1:8080/checkout/cs_local_1'));
    expect(bodies).toEqual([{ priceId: 'price_local_quarterly', userId: 'local-abc', email: 'ana@example.com' }]);
    expect(contentTypes).toEqual(['application/json']);
  });

  it("uses the profile's uid and e-mail, and the sign-in's while the profile is still loading", async () => {
    vi.spyOn(browser, 'go').mockImplementation(() => undefined);
    const bodies: unknown[] = [];
    server.use(
      plansHandler(),
      http.post(CHECKOUT_PATH, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ url: 'http://127.0.0.1:8080/checkout/cs_local_2' });
      }),
    );
    const loading = profileValue(null, { state: { status: 'loading' } });
    renderPricing({ auth: authValue({ user: { uid: 'sub-1', email: 'bo@example.com' } }), profile: loading });
    await userEvent.click(await screen.findByRole('button', { name: 'Get 1 Month' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ priceId: 'price_local_monthly', userId: 'sub-1', email: 'bo@example.com' });
  });

  it.each([
    ['missing', null],
    ['empty', ''],
    ['still the placeholder', 'price_your_monthly_id'],
  ])('alerts without calling the server when the price id is %s', async (_, priceId) => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const calls = vi.fn();
    server.use(
      plansHandler(PLANS.map((p) => (p.id === 'monthly' ? { ...p, priceId } : p))),
      http.post(CHECKOUT_PATH, () => {
        calls();
        return HttpResponse.json({ url: 'http://x/checkout' });
      }),
    );
    renderPricing({ auth: authValue({ user: ana }), profile: profileValue(meValue()) });
    const button = await screen.findByRole('button', { name: 'Get 1 Month' });
    await userEvent.click(button);
    expect(alert).toHaveBeenCalledWith('Stripe Price ID is not configured. Please check the .env file.');
    expect(calls).not.toHaveBeenCalled();
    expect(button).not.toHaveAttribute('aria-busy');
  });

  it('asks a visitor to sign in before checking the price id', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    server.use(plansHandler(PLANS.map((p) => ({ ...p, priceId: null }))));
    const auth = authValue();
    renderPricing({ auth });
    await userEvent.click(await screen.findByRole('button', { name: 'Get 1 Month' }));
    expect(auth.login).toHaveBeenCalledTimes(1);
    expect(alert).not.toHaveBeenCalled();
  });

  it("alerts the server's error text when the checkout fails, then lets the user try again", async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    server.use(
      plansHandler(),
      http.post(CHECKOUT_PATH, () => HttpResponse.json({ error: 'Failed to create checkout session.' }, { status: 502 })),
    );
    renderPricing({ auth: authValue({ user: ana }), profile: profileValue(meValue()) });
    const button = await screen.findByRole('button', { name: 'Get 1 Month' });
    await userEvent.click(button);
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Error during checkout: Failed to create checkout session.'));
    expect(button).not.toHaveAttribute('aria-busy');
    expect(button).toHaveTextContent('Get 1 Month');

    server.use(http.post(CHECKOUT_PATH, () => HttpResponse.json({ error: 'Unknown price.' }, { status: 400 })));
    await userEvent.click(button);
    await waitFor(() => expect(alert).toHaveBeenLastCalledWith('Error during checkout: Unknown price.'));
  });

  it.each([
    ['an error without text', () => new HttpResponse('', { status: 500 })],
    ['an answer without an address', () => HttpResponse.json({})],
    ['an address that is not text', () => HttpResponse.json({ url: 42 })],
    ['no connection', () => HttpResponse.error()],
  ])('falls back to the generic message on %s', async (_, answer) => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const go = vi.spyOn(browser, 'go').mockImplementation(() => undefined);
    server.use(plansHandler(), http.post(CHECKOUT_PATH, answer));
    renderPricing({ auth: authValue({ user: ana }), profile: profileValue(meValue()) });
    await userEvent.click(await screen.findByRole('button', { name: 'Get 1 Month' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Error during checkout: Failed to create checkout session.'));
    expect(go).not.toHaveBeenCalled();
  });

  it('is ready again when the page comes back from the payment page through the browser cache', async () => {
    const go = vi.spyOn(browser, 'go').mockImplementation(() => undefined);
    server.use(plansHandler(), http.post(CHECKOUT_PATH, () => HttpResponse.json({ url: 'http://x/checkout/cs_3' })));
    renderPricing({ auth: authValue({ user: ana }), profile: profileValue(meValue()) });
    const button = await screen.findByRole('button', { name: 'Get 1 Month' });
    await userEvent.click(button);
    await waitFor(() => expect(go).toHaveBeenCalled());
    expect(button).toHaveAttribute('aria-busy', 'true');

    const shown = new Event('pageshow');
    Object.defineProperty(shown, 'persisted', { value: true });
    act(() => {
      window.dispatchEvent(shown);
    });
    expect(button).not.toHaveAttribute('aria-busy');
    expect(button).toHaveTextContent('Get 1 Month');
  });
});

describe('Pricing: already subscribed', () => {
  const activeMonthly: Me = meValue({
    subscription: { status: 'active', label: 'Active', plan: 'monthly', endDate, daysLeft: 12 },
  });

  it('a click that races the profile gets the server\'s 409: the profile reloads and the modal shows days left and end date', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const go = vi.spyOn(browser, 'go').mockImplementation(() => undefined);
    let me = meValue();
    server.use(
      plansHandler(),
      http.get('/api/me', () => HttpResponse.json(me)),
      http.post(CHECKOUT_PATH, () => {
        // Bought in another tab meanwhile: the server knows, the page does not.
        me = activeMonthly;
        return HttpResponse.json({ error: 'You already have an active subscription.' }, { status: 409 });
      }),
    );
    renderWithApp(<></>, {
      auth: authValue({ user: ana }),
      routes: [{ path: '/', element: <ProfileProvider><Pricing /></ProfileProvider> }],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Get 1 Month' }));

    const modal = await screen.findByRole('dialog', { name: 'Already Subscribed' });
    expect(modal).toHaveTextContent('You already have an active subscription.');
    expect(modal).toHaveTextContent('Days left: 12');
    expect(modal).toHaveTextContent(`Ends on: ${formatLocalDate(endDate)}`);
    expect(alert).not.toHaveBeenCalled();
    expect(go).not.toHaveBeenCalled();
    // The page behind follows the reloaded profile.
    expect(screen.getAllByRole('button', { name: 'Subscribed', hidden: true })).toHaveLength(2);

    await userEvent.click(within(modal).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      new RegExp(`^You are currently subscribed\\. Your plan ends on ${formatLocalDate(endDate)}\\.$`),
    );
  });

  it('Escape closes the modal too', async () => {
    server.use(
      plansHandler(),
      http.post(CHECKOUT_PATH, () =>
        HttpResponse.json({ error: 'You already have an active subscription.' }, { status: 409 }),
      ),
    );
    const profile = profileValue(meValue());
    renderPricing({ auth: authValue({ user: ana }), profile });
    await userEvent.click(await screen.findByRole('button', { name: 'Get Quarterly' }));
    await screen.findByRole('dialog', { name: 'Already Subscribed' });
    expect(profile.refresh).toHaveBeenCalledTimes(1);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('Pricing: checkout rules', () => {
  it('accepts a configured price id and refuses a missing one or a placeholder', () => {
    expect(priceIdConfigured('price_1QabcXYZ')).toBe(true);
    expect(priceIdConfigured('price_local_monthly')).toBe(true);
    expect(priceIdConfigured(null)).toBe(false);
    expect(priceIdConfigured('')).toBe(false);
    expect(priceIdConfigured('price_your_quarterly_id')).toBe(false);
    expect(PRICE_NOT_CONFIGURED).toBe('Stripe Price ID is not configured. Please check the .env file.');
  });

  it("says the server's text, else the generic one", () => {
    expect(checkoutErrorText(new ApiError(409, 'You already have an active subscription.', true))).toBe(
      'Error during checkout: You already have an active subscription.',
    );
    expect(checkoutErrorText(new ApiError(500, 'Request failed (500)'))).toBe(`Error during checkout: ${CHECKOUT_FAILED}`);
    expect(checkoutErrorText(new Error('No checkout address'))).toBe('Error during checkout: Failed to create checkout session.');
  });
});
