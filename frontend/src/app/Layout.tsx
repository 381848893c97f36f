import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useNavigate } from 'react-router';
import { Footer } from '@/features/layout/Footer';
import { Navbar } from '@/features/layout/Navbar';
import { TermsModal } from '@/features/privacy/TermsModal';
import { takeRedirect, useAuth } from '@/shared/auth';

/** Sends a user who just signed in to the path they were heading for, once. */
function usePostLoginRedirect() {
  const { isLoggedIn } = useAuth();
  const navigate = useNavigate();
  const wasLoggedIn = useRef(isLoggedIn);
  useEffect(() => {
    if (isLoggedIn && !wasLoggedIn.current) {
      const target = takeRedirect();
      if (target) void navigate(target);
    }
    wasLoggedIn.current = isLoggedIn;
  }, [isLoggedIn, navigate]);
}

export function Layout() {
  usePostLoginRedirect();
  return (
    <div className="app-shell">
      <Navbar />
      <main className="app-main" id="main">
        <Outlet />
      </main>
      <Footer />
      <TermsModal />
      <ScrollRestoration />
    </div>
  );
}
