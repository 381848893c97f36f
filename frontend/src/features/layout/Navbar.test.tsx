import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authValue, renderWithApp } from '@/test/render';
import { Navbar } from './Navbar';

const ana = { uid: 'local-1', email: 'ana@example.com' };

function nav() {
  return within(screen.getByRole('navigation', { name: 'Main' }));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Navbar', () => {
  it('shows Home, Pricing, About and Login to a visitor', async () => {
    const auth = authValue();
    renderWithApp(<Navbar />, { auth });
    expect(nav().getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(nav().getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/#pricing');
    expect(nav().getByRole('link', { name: 'About' })).toHaveAttribute('href', '/#about');
    expect(nav().getByRole('link', { name: 'TEF Prep Canada' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('link', { name: 'Results' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(auth.login).toHaveBeenCalledTimes(1);
    expect(auth.login).toHaveBeenCalledWith();
  });

  it('adds Results and Dashboard for a signed-in user', () => {
    renderWithApp(<Navbar />, { auth: authValue({ user: ana }) });
    expect(nav().getByRole('link', { name: 'Results' })).toHaveAttribute('href', '/results-tracker');
    expect(nav().getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('marks the current page', () => {
    renderWithApp(<Navbar />, { auth: authValue({ user: ana }), path: '/dashboard' });
    expect(nav().getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    expect(nav().getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  it('signs out, then goes to the landing page', async () => {
    const auth = authValue({ user: ana });
    const { router } = renderWithApp(<Navbar />, { auth, path: '/dashboard' });
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(auth.logout).toHaveBeenCalledTimes(1);
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows neither Login nor Logout before the session is read', () => {
    renderWithApp(<Navbar />, { auth: authValue({ ready: false }) });
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it('opens the menu with the toggle and closes it when a link is chosen', async () => {
    renderWithApp(<Navbar />);
    const toggle = screen.getByRole('button', { name: 'Toggle navigation' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', nav().getByRole('list').parentElement?.id);

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('banner')).toHaveClass('is-open');

    await userEvent.click(nav().getByRole('link', { name: 'Pricing' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the menu on Escape', async () => {
    renderWithApp(<Navbar />);
    const toggle = screen.getByRole('button', { name: 'Toggle navigation' });
    await userEvent.click(toggle);
    await userEvent.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('scrolls back to the top when Home is chosen on the landing page', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const { router } = renderWithApp(<Navbar />, { path: '/#pricing' });
    await userEvent.click(nav().getByRole('link', { name: 'Home' }));
    expect(router.state.location.hash).toBe('');
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
  });
});
