import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '@/shared/api';
import { ProfileProvider, useProfile } from '@/shared/profile';
import { authValue, meValue, profileValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { formatAmount, readSession, SESSION_PATH, SuccessPage } from './SuccessPage';

const ana = { uid: 'local-abc', email: 'ana@example.com' };
const paidSession = { amount_total: 3400, currency: 'cad', paid: true };

function renderSuccess(path: string, options: Parameters<typeof renderWithApp>[1] = {}) {
  return renderWithApp(<></>, {
    ...options,
    path,
    routes: [
      { path: '/success', element: <SuccessPage /> },
      { path: '/', element: <p>home page</p> },
      { path: '/dashboard', element: <p>dashboard page</p> },
    ],
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('SuccessPage', () => {
  it('loads the session, then thanks the buyer with the amount paid and refreshes the profile once', async () => {
    const asked: string[] = [];
    server.use(
      http.get(SESSION_PATH, async ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('sessionId') ?? '');
        await delay(30);
        return HttpResponse.json(paidSession);
      }),
    );
    const profile = profileValue(meValue());
    renderSuccess('/success?session_id=cs_local_a%2Bb', { auth: authValue({ user: ana }), profile });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your purchase details...');

    expect(await screen.findByRole('heading', { name: 'Thank you for your purchase!' })).toBeInTheDocument();
    expect(screen.getByText('Your payment was successful. Your account has been updated.')).toBeInTheDocument();
    expect(screen.getByText('34.00 CAD')).toBeInTheDocument();
    expect(screen.getByText('34.00 CAD').closest('p')).toHaveTextContent('Amount paid: 34.00 CAD');
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Go to My Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(asked).toEqual(['cs_local_a+b']);
    await waitFor(() => expect(profile.refresh).toHaveBeenCalledTimes(1));
  });

  it('says when there is no session id, without asking the server', () => {
    renderSuccess('/success', { auth: authValue({ user: ana }) });
    expect(screen.getByRole('alert')).toHaveTextContent(/^No session ID found\.$/);
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });

  it.each([
    ['unknown or not yours', () => HttpResponse.json({ error: 'Not found.' }, { status: 404 })],
    ['a server error', () => HttpResponse.json({ error: 'Internal error.' }, { status: 500 })],
    ['no connection', () => HttpResponse.error()],
  ])('says it failed to fetch the session when it is %s', async (_, answer) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get(SESSION_PATH, answer));
    const profile = profileValue(meValue());
    renderSuccess('/success?session_id=cs_x', { auth: authValue({ user: ana }), profile });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to fetch session data$/);
    expect(screen.getByRole('link', { name: 'Return to Home' })).toBeInTheDocument();
    expect(profile.refresh).not.toHaveBeenCalled();
  });

  it.each([
    ['no amount', { currency: 'cad', paid: true }],
    ['an amount that is text', { amount_total: '3400', currency: 'cad', paid: true }],
    ['no currency', { amount_total: 3400, paid: true }],
    ['nothing', null],
  ])('says it could not retrieve the session on an answer with %s', async (_, body) => {
    server.use(http.get(SESSION_PATH, () => HttpResponse.json(body)));
    const profile = profileValue(meValue());
    renderSuccess('/success?session_id=cs_x', { auth: authValue({ user: ana }), profile });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Could not retrieve session data\.$/);
    expect(screen.getByRole('link', { name: 'Return to Home' })).toBeInTheDocument();
    expect(profile.refresh).not.toHaveBeenCalled();
  });

  it('does not claim success for a session that is not paid', async () => {
    server.use(http.get(SESSION_PATH, () => HttpResponse.json({ ...paidSession, paid: false })));
    const profile = profileValue(meValue());
    renderSuccess('/success?session_id=cs_x', { auth: authValue({ user: ana }), profile });
    expect(await screen.findByRole('heading', { name: 'Payment not received yet' })).toBeInTheDocument();
    expect(screen.getByText('34.00 CAD')).toBeInTheDocument();
    expect(screen.queryByText(/Thank you/)).not.toBeInTheDocument();
    expect(profile.refresh).not.toHaveBeenCalled();
  });

  it('waits for the stored sign-in before asking (a fresh page load after the payment page)', async () => {
    const asked = vi.fn();
    server.use(
      http.get(SESSION_PATH, () => {
        asked();
        return HttpResponse.json(paidSession);
      }),
    );
    renderSuccess('/success?session_id=cs_x', { auth: authValue({ ready: false }) });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your purchase details...');
    await new Promise((r) => setTimeout(r, 30));
    expect(asked).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('asks a signed-out visitor to log in, and comes back to this page', async () => {
    const asked = vi.fn();
    server.use(http.get(SESSION_PATH, asked));
    const auth = authValue();
    renderSuccess('/success?session_id=cs_x', { auth });
    expect(screen.getByText('Log in with the account you paid with to see your purchase details.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(auth.login).toHaveBeenCalledWith('/success?session_id=cs_x');
    expect(asked).not.toHaveBeenCalled();
  });

  it('brings the whole app up to date: a screen reading the profile shows the new subscription', async () => {
    let me: Me = meValue();
    server.use(
      http.get('/api/me', () => HttpResponse.json(me)),
      http.get(SESSION_PATH, () => {
        // The server fulfils the purchase before it answers.
        me = meValue({
          subscription: { status: 'active', label: 'Active', plan: 'monthly', endDate: '2030-01-01T00:00:00Z', daysLeft: 30 },
        });
        return HttpResponse.json(paidSession);
      }),
    );
    function Status() {
      const { me: current } = useProfile();
      return <p data-testid="status">{current?.subscription.status ?? 'loading'}</p>;
    }
    renderWithApp(<></>, {
      path: '/success?session_id=cs_local_1',
      auth: authValue({ user: ana }),
      routes: [
        {
          path: '/success',
          element: (
            <ProfileProvider>
              <Status />
              <SuccessPage />
            </ProfileProvider>
          ),
        },
      ],
    });
    expect(await screen.findByText('34.00 CAD')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('active'));
  });
});

describe('amounts and session answers', () => {
  it('shows amount_total / 100 with two decimals and the currency in capitals', () => {
    expect(formatAmount(3400, 'cad')).toBe('34.00 CAD');
    expect(formatAmount(6900, 'cad')).toBe('69.00 CAD');
    expect(formatAmount(2350, 'usd')).toBe('23.50 USD');
    expect(formatAmount(1, 'cad')).toBe('0.01 CAD');
    expect(formatAmount(0, 'cad')).toBe('0.00 CAD');
  });

  it('reads a session, treating anything but paid: true as not paid', () => {
    expect(readSession({ amount_total: 3400, currency: 'cad', paid: true })).toEqual(paidSession);
    expect(readSession({ amount_total: 3400, currency: 'cad' })).toEqual({ ...paidSession, paid: false });
    expect(readSession({ amount_total: 3400, currency: 'cad', paid: 'yes' })?.paid).toBe(false);
    expect(readSession({ amount_total: Number.NaN, currency: 'cad' })).toBeNull();
    expect(readSession({ amount_total: 3400, currency: '' })).toBeNull();
    expect(readSession('34.00')).toBeNull();
  });
});
