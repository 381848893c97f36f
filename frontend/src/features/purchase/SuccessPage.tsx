import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { api, type CheckoutSession } from '@/shared/api';
import { useAuth } from '@/shared/auth';
import { useProfile } from '@/shared/profile';
import './purchase.css';

export const SESSION_PATH = '/api/stripe/checkout-session';

/** The spec's texts (§2, §8). */
export const SUCCESS_TEXT = {
  loading: 'Loading your purchase details...',
  noSession: 'No session ID found.',
  fetchFailed: 'Failed to fetch session data',
  badShape: 'Could not retrieve session data.',
} as const;

/** '34.00 CAD': amount_total is in minor units, the currency in lower case. */
export function formatAmount(amountTotal: number, currency: string): string {
  return `${(amountTotal / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

/** The session as the page needs it, or null when the answer is not of that shape. */
export function readSession(data: unknown): CheckoutSession | null {
  if (typeof data !== 'object' || data === null) return null;
  const { amount_total, currency, paid } = data as Record<string, unknown>;
  if (typeof amount_total !== 'number' || !Number.isFinite(amount_total)) return null;
  if (typeof currency !== 'string' || currency === '') return null;
  return { amount_total, currency, paid: paid === true };
}

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'done'; session: CheckoutSession };

function HomeLink() {
  return (
    <Link to="/" className="btn btn-primary">
      Return to Home
    </Link>
  );
}

/** /success?session_id=…: confirms a payment (spec §2) and brings the whole app up to date with it. */
export function SuccessPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const sessionId = params.get('session_id');
  const { ready, user, login } = useAuth();
  const { refresh } = useProfile();
  const uid = user?.uid ?? null;
  const [loaded, setLoaded] = useState<{ key: string; state: State } | null>(null);
  const refreshed = useRef<string | null>(null);
  const key = `${uid ?? ''}|${sessionId ?? ''}`;

  useEffect(() => {
    // The session belongs to its buyer: ask only once the stored sign-in has been read.
    if (!sessionId || !uid) return;
    let cancelled = false;
    api
      .get<unknown>(`${SESSION_PATH}?sessionId=${encodeURIComponent(sessionId)}`)
      .then((data) => {
        if (cancelled) return;
        const session = readSession(data);
        setLoaded({ key, state: session ? { kind: 'done', session } : { kind: 'error', message: SUCCESS_TEXT.badShape } });
      })
      .catch((err: unknown) => {
        console.error('Could not fetch the checkout session', err);
        if (!cancelled) setLoaded({ key, state: { kind: 'error', message: SUCCESS_TEXT.fetchFailed } });
      });
    return () => {
      cancelled = true;
    };
  }, [sessionId, uid, key]);

  const state: State = !sessionId
    ? { kind: 'error', message: SUCCESS_TEXT.noSession }
    : loaded?.key === key
      ? loaded.state
      : { kind: 'loading' };

  // A paid session is fulfilled by the time the server answers: reload the profile once, so the
  // navbar, pricing, section locks and dashboard follow without a page reload.
  const paid = state.kind === 'done' && state.session.paid;
  useEffect(() => {
    if (!paid || !sessionId || refreshed.current === sessionId) return;
    refreshed.current = sessionId;
    void refresh();
  }, [paid, sessionId, refresh]);

  if (sessionId && ready && !user) {
    return (
      <section className="page page-narrow status-page">
        <h1 className="page-title">Your Purchase</h1>
        <p className="page-lead">Log in with the account you paid with to see your purchase details.</p>
        <div className="purchase-actions">
          <button type="button" className="btn btn-primary" onClick={() => void login(location.pathname + location.search)}>
            Login
          </button>
          <Link to="/" className="btn btn-secondary">
            Return to Home
          </Link>
        </div>
      </section>
    );
  }

  if (state.kind === 'loading') {
    return (
      <section className="page page-narrow status-page">
        <p className="page-status" role="status">
          {SUCCESS_TEXT.loading}
        </p>
      </section>
    );
  }

  if (state.kind === 'error') {
    return (
      <section className="page page-narrow status-page">
        <h1 className="page-title">Your Purchase</h1>
        <p className="notice notice-error purchase-error" role="alert">
          {state.message}
        </p>
        <HomeLink />
      </section>
    );
  }

  const amount = formatAmount(state.session.amount_total, state.session.currency);
  if (!state.session.paid) {
    return (
      <section className="page page-narrow status-page">
        <h1 className="page-title">Payment not received yet</h1>
        <p className="page-lead">
          Your payment has not been confirmed. If you completed it, your account will be updated in a few minutes.
        </p>
        <p className="purchase-amount">
          Amount: <strong>{amount}</strong>
        </p>
        <div className="purchase-actions">
          <HomeLink />
          <Link to="/dashboard" className="btn btn-secondary">
            Go to My Dashboard
          </Link>
        </div>
      </section>
    );
  }

  return (
    <section className="page page-narrow status-page">
      <span className="purchase-check" aria-hidden="true">
        ✓
      </span>
      <h1 className="page-title">Thank you for your purchase!</h1>
      <p className="page-lead">Your payment was successful. Your account has been updated.</p>
      <p className="purchase-amount">
        Amount paid: <strong>{amount}</strong>
      </p>
      <div className="purchase-actions">
        <HomeLink />
        <Link to="/dashboard" className="btn btn-secondary">
          Go to My Dashboard
        </Link>
      </div>
    </section>
  );
}
