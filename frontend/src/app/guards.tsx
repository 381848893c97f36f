import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useAuth } from '@/shared/auth';

/** Logged-in only; everyone else is sent to the landing page (spec route table). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { ready, isLoggedIn } = useAuth();
  if (!ready) return <p className="page-status">Loading…</p>;
  if (!isLoggedIn) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** The login-required wrapper: explains, and offers the Login button. */
export function LoginRequired({ children }: { children: ReactNode }) {
  const { ready, isLoggedIn, login } = useAuth();
  if (!ready) return <p className="page-status">Loading…</p>;
  if (isLoggedIn) return <>{children}</>;
  return (
    <section className="page page-narrow login-required">
      <p>You must be logged in to access that page.</p>
      <button type="button" className="btn btn-primary" onClick={() => void login()}>
        Login
      </button>
    </section>
  );
}
