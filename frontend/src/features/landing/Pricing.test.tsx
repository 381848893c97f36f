import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatLocalDate } from '@/shared/format';
import { authValue, meValue, profileValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { CHECKOUT_PATH, Pricing } from './Pricing';
import { browser } from './pricing';
import { PLANS, plansHandler } from './testUtils';

const ana = { uid: 'local-1', email: 'ana@example.com' };
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
    expect(
      screen.getByText(`You are currently subscribed. Your plan ends on ${formatLocalDate(endDate)}.`),
    ).toBeInTheDocument();
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

  it('starts a checkout once, shows it is busy, and goes to the payment page', async () => {
    const go = vi.spyOn(browser, 'go').mockImplementation(() => undefined);
    const bodies: unknown[] = [];
    server.use(
      plansHandler(),
      http.post(CHECKOUT_PATH, async ({ request }) => {
        bodies.push(await request.json());
        await delay(50);
        return HttpResponse.json({ url: 'https://checkout.example/session/cs_1' });
      }),
    );
    renderPricing({ auth: authValue({ user: ana }), profile: profileValue(meValue()) });
    const button = await screen.findByRole('button', { name: 'Get Quarterly' });
    await userEvent.dblClick(button);
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveTextContent('Opening secure checkout…');

    await waitFor(() => expect(go).toHaveBeenCalledWith('https://checkout.example/session/cs_1'));
    expect(bodies).toEqual([{ planId: 'quarterly' }]);
  });

  it("alerts the server's error text when the checkout fails, then lets the user try again", async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    server.use(
      plansHandler(),
      http.post(CHECKOUT_PATH, () => HttpResponse.json({ error: 'Checkout is not available yet.' }, { status: 404 })),
    );
    renderPricing({ auth: authValue({ user: ana }), profile: profileValue(meValue()) });
    const button = await screen.findByRole('button', { name: 'Get 1 Month' });
    await userEvent.click(button);
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Error during checkout: Checkout is not available yet.'));
    expect(button).not.toHaveAttribute('aria-busy');
    expect(button).toHaveTextContent('Get 1 Month');
  });

  it('falls back to a generic message when the answer has no address', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const go = vi.spyOn(browser, 'go').mockImplementation(() => undefined);
    server.use(plansHandler(), http.post(CHECKOUT_PATH, () => HttpResponse.json({})));
    renderPricing({ auth: authValue({ user: ana }), profile: profileValue(meValue()) });
    await userEvent.click(await screen.findByRole('button', { name: 'Get 1 Month' }));
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith('Error during checkout: Failed to create checkout session.'),
    );
    expect(go).not.toHaveBeenCalled();
  });
});
