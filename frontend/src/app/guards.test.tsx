import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authValue, renderWithApp } from '@/test/render';
import { LoginRequired, RequireAuth } from './guards';

const ana = { uid: 'local-1', email: 'ana@example.com' };

describe('RequireAuth', () => {
  it('sends a visitor to the landing page', async () => {
    const { router } = renderWithApp(<></>, {
      path: '/section/reading',
      routes: [
        { path: '/', element: <p>landing</p> },
        { path: '/section/reading', element: <RequireAuth><p>secret</p></RequireAuth> },
      ],
    });
    expect(await screen.findByText('landing')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows the page to a signed-in user', () => {
    renderWithApp(<RequireAuth><p>secret</p></RequireAuth>, { auth: authValue({ user: ana }) });
    expect(screen.getByText('secret')).toBeInTheDocument();
  });
});

describe('LoginRequired', () => {
  it('explains and offers the Login button', async () => {
    const auth = authValue();
    renderWithApp(<LoginRequired><p>secret</p></LoginRequired>, { auth });
    expect(screen.getByText('You must be logged in to access that page.')).toBeInTheDocument();
    expect(screen.queryByText('secret')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(auth.login).toHaveBeenCalledTimes(1);
  });

  it('shows the page to a signed-in user', () => {
    renderWithApp(<LoginRequired><p>secret</p></LoginRequired>, { auth: authValue({ user: ana }) });
    expect(screen.getByText('secret')).toBeInTheDocument();
  });
});
