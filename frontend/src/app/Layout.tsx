import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useMatches, useNavigate } from 'react-router';
import { Footer } from '@/features/layout/Footer';
import { Navbar } from '@/features/layout/Navbar';
import { TermsModal } from '@/features/privacy/TermsModal';
import { takeRedirect, useAuth } from '@/shared/auth';
import { useShell } from '@/shared/shell';
import { useDocumentTitle } from '@/shared/title';
import { isRouteHandle } from './titles';

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

/** The deepest matched route's title ('Reading Test 3'), from its `handle`. */
function useRouteTitle(): string | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const { handle, params } = matches[i] ?? {};
    if (isRouteHandle(handle)) return handle.title(params ?? {});
  }
  return null;
}

/**
 * Every page opened directly (typed, bookmarked, reloaded) has the history key 'default': keyed by that,
 * a new page would open at the scroll position of the last one. Those pages are keyed by their path.
 */
function scrollKey({ key, pathname }: { key: string; pathname: string }): string {
  return key === 'default' ? pathname : key;
}

export function Layout() {
  usePostLoginRedirect();
  useDocumentTitle(useRouteTitle());
  const shell = useShell();
  return (
    <div className="app-shell">
      <Navbar />
      <main className="app-main" id="main">
        <Outlet />
      </main>
      {!shell && (
        <>
          <Footer />
          <TermsModal />
          <ScrollRestoration getKey={scrollKey} />
        </>
      )}
    </div>
  );
}
