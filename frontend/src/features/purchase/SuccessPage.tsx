import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '@/shared/api';

interface SessionData {
  amount_total: number;
  currency: string;
}

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'done'; data: SessionData };

/** /success?session_id=…: confirms a payment (spec §2). */
export function SuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const [state, setState] = useState<State>(() =>
    sessionId ? { kind: 'loading' } : { kind: 'error', message: 'No session ID found.' },
  );

  useEffect(() => {
    if (!sessionId) return;
    let cancelled = false;
    api
      .get<SessionData>(`/api/stripe/checkout-session?sessionId=${encodeURIComponent(sessionId)}`)
      .then((data) => {
        if (cancelled) return;
        if (typeof data.amount_total !== 'number' || typeof data.currency !== 'string') {
          setState({ kind: 'error', message: 'Could not retrieve session data.' });
        } else {
          setState({ kind: 'done', data });
        }
      })
      .catch(() => {
        if (!cancelled) setState({ kind: 'error', message: 'Failed to fetch session data' });
      });
    return () => {
      cancelled = true;
    };
  }, [sessionId]);

  return (
    <section className="page page-narrow status-page">
      {state.kind === 'loading' && <p className="page-status">Loading your purchase details...</p>}
      {state.kind === 'error' && <p className="error-text">{state.message}</p>}
      {state.kind === 'done' && (
        <>
          <h1 className="page-title">Thank you for your purchase!</h1>
          <p className="page-lead">Your payment was successful. Your account has been updated.</p>
          <p>
            Amount paid:{' '}
            <strong>
              {(state.data.amount_total / 100).toFixed(2)} {state.data.currency.toUpperCase()}
            </strong>
          </p>
        </>
      )}
      {state.kind !== 'loading' && (
        <Link to="/" className="btn btn-primary">
          Return to Home
        </Link>
      )}
    </section>
  );
}
