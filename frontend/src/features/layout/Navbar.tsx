import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { useAuth } from '@/shared/auth';
import { useShell } from '@/shared/shell';
import { BrandMark, PRODUCT_NAME } from './BrandMark';
import './navbar.css';

function scrollBehavior(): ScrollBehavior {
  const reduce = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  return reduce ? 'auto' : 'smooth';
}

/** Moves keyboard focus to the page content without touching the address bar. */
function skipToMain(e: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById('main');
  if (!main) return;
  e.preventDefault();
  if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
  main.focus();
}

/**
 * The top navigation bar on every page (spec §2): brand, Home, Pricing, About,
 * Results and Dashboard when signed in, then Login or Logout. Below 768 px the
 * links fold behind a hamburger toggle.
 */
export function Navbar() {
  const shell = useShell();
  const { ready, isLoggedIn, login, logout } = useAuth();
  const navigate = useNavigate();
  const { pathname, hash } = useLocation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  // Escape closes the open menu and gives focus back to the toggle.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const close = () => setOpen(false);

  const onLanding = pathname === '/';
  const hashActive = (id: string) => onLanding && hash === `#${id}`;
  const homeActive = onLanding && !hashActive('pricing') && !hashActive('about');

  const goHome = (e: MouseEvent<HTMLAnchorElement>) => {
    close();
    if (!onLanding) return;
    // Already on the landing page: go back to the top (and drop any #section from the address).
    if (!hash) e.preventDefault();
    window.scrollTo({ top: 0, behavior: scrollBehavior() });
  };

  const onLogin = () => {
    close();
    void login();
  };

  const onLogout = async () => {
    if (busy) return;
    close();
    setBusy(true);
    try {
      await logout();
      await navigate('/');
    } finally {
      setBusy(false);
    }
  };

  const linkClass = (active: boolean) => `nav-link${active ? ' is-active' : ''}`;
  const navLinkClass = ({ isActive }: { isActive: boolean }) => linkClass(isActive);

  return (
    <header className={`navbar${open ? ' is-open' : ''}`}>
      <a className="skip-link" href="#main" onClick={skipToMain}>
        Skip to content
      </a>
      <nav className="navbar-inner" aria-label="Main">
        <Link to="/" className="brand" onClick={goHome}>
          <BrandMark />
          <span className="brand-name">{PRODUCT_NAME}</span>
        </Link>

        <button
          ref={toggleRef}
          type="button"
          className="nav-toggle"
          aria-label="Toggle navigation"
          aria-expanded={open}
          aria-controls={menuId}
          // In the first screen painted before the app starts, the menu cannot open yet: say so.
          disabled={shell}
          onClick={() => setOpen((o) => !o)}
        >
          <span className="nav-toggle-bars" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
        </button>

        <div className="nav-menu" id={menuId}>
          <ul className="nav-links">
            <li>
              <Link to="/" className={linkClass(homeActive)} aria-current={homeActive ? 'page' : undefined} onClick={goHome}>
                Home
              </Link>
            </li>
            <li>
              <Link to="/#pricing" className={linkClass(hashActive('pricing'))} onClick={close}>
                Pricing
              </Link>
            </li>
            <li>
              <Link to="/#about" className={linkClass(hashActive('about'))} onClick={close}>
                About
              </Link>
            </li>
            {isLoggedIn && (
              <>
                <li>
                  <NavLink to="/results-tracker" className={navLinkClass} onClick={close}>
                    Results
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/dashboard" className={navLinkClass} onClick={close}>
                    Dashboard
                  </NavLink>
                </li>
              </>
            )}
          </ul>
          <div className="nav-actions">
            {!ready ? (
              <span className="nav-auth-placeholder" aria-hidden="true" />
            ) : isLoggedIn ? (
              <button
                type="button"
                className="btn btn-secondary btn-sm nav-auth"
                onClick={() => void onLogout()}
                disabled={busy}
              >
                Logout
              </button>
            ) : (
              <button type="button" className="btn btn-accent btn-sm nav-auth" onClick={onLogin}>
                Login
              </button>
            )}
          </div>
        </div>
      </nav>
    </header>
  );
}
