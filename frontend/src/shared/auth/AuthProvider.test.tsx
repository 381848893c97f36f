import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { User, UserManager } from 'oidc-client-ts';
import { describe, expect, it, vi } from 'vitest';
import { AuthProvider, useAuth } from './AuthProvider';
import type { AuthLoader } from './loader';
import { takeRedirect } from './redirect';

type Listener = (arg?: unknown) => void;

/** A stand-in for oidc-client-ts's UserManager with the parts the provider uses. */
function fakeManager(opts: { stored?: User | null; signin?: () => Promise<User> } = {}) {
  const listeners: Record<string, Listener[]> = {};
  const on = (name: string) => (cb: Listener) => {
    (listeners[name] ??= []).push(cb);
    return () => undefined;
  };
  const manager = {
    getUser: vi.fn(() => Promise.resolve(opts.stored ?? null)),
    signinPopup: vi.fn(opts.signin ?? (() => Promise.resolve(user('ana@example.com')))),
    removeUser: vi.fn(() => Promise.resolve()),
    revokeTokens: vi.fn(() => Promise.resolve()),
    events: {
      addUserLoaded: on('userLoaded'),
      addUserUnloaded: on('userUnloaded'),
      addUserSignedOut: on('userSignedOut'),
      addAccessTokenExpired: on('accessTokenExpired'),
      addSilentRenewError: on('silentRenewError'),
    },
  };
  const emit = (name: string, arg?: unknown) => listeners[name]?.forEach((cb) => cb(arg));
  const load = vi.fn(() => Promise.resolve(manager as unknown as UserManager));
  // A session is stored exactly when the fake has a stored user.
  const leave = vi.fn();
  const auth: AuthLoader = { hasSession: () => Boolean(opts.stored), load, leave };
  return { manager: auth, spies: manager, emit, load, leave };
}

function user(email: string): User {
  return {
    expired: false,
    id_token: 'id-token',
    refresh_token: 'refresh-token',
    profile: { sub: `sub-${email}`, email },
  } as unknown as User;
}

function Probe() {
  const { ready, user: u, login, logout, lastError } = useAuth();
  return (
    <div>
      <p>{ready ? 'ready' : 'starting'}</p>
      <p>{u ? `signed in as ${u.email ?? ''}` : 'signed out'}</p>
      <p>error: {lastError ?? 'none'}</p>
      <button onClick={() => void login('/section/writing')}>login</button>
      <button onClick={() => void logout()}>logout</button>
    </div>
  );
}

describe('AuthProvider', () => {
  it('loads no sign-in library for a visitor without a session until they sign in', async () => {
    const { manager, load } = fakeManager();
    render(<AuthProvider auth={manager}><Probe /></AuthProvider>);
    await screen.findByText('ready');
    expect(screen.getByText('signed out')).toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
    await userEvent.click(screen.getByText('login'));
    expect(await screen.findByText('signed in as ana@example.com')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('restores a stored session at start', async () => {
    const { manager } = fakeManager({ stored: user('kept@example.com') });
    render(<AuthProvider auth={manager}><Probe /></AuthProvider>);
    expect(await screen.findByText('signed in as kept@example.com')).toBeInTheDocument();
  });

  it('signs in through the popup and remembers where to go', async () => {
    const { manager } = fakeManager();
    render(<AuthProvider auth={manager}><Probe /></AuthProvider>);
    await screen.findByText('ready');
    await userEvent.click(screen.getByText('login'));
    expect(await screen.findByText('signed in as ana@example.com')).toBeInTheDocument();
    expect(takeRedirect()).toBe('/section/writing');
  });

  it('ignores a login while one is in progress', async () => {
    let finish: (u: User) => void = () => undefined;
    const { manager, spies } = fakeManager({ signin: () => new Promise<User>((r) => (finish = r)) });
    render(<AuthProvider auth={manager}><Probe /></AuthProvider>);
    await screen.findByText('ready');
    await userEvent.click(screen.getByText('login'));
    await userEvent.click(screen.getByText('login'));
    expect(spies.signinPopup).toHaveBeenCalledTimes(1);
    act(() => finish(user('ana@example.com')));
    expect(await screen.findByText('signed in as ana@example.com')).toBeInTheDocument();
  });

  it('only logs a popup the user closed', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const { manager } = fakeManager({ signin: () => Promise.reject(new Error('Popup closed by user')) });
    render(<AuthProvider auth={manager}><Probe /></AuthProvider>);
    await screen.findByText('ready');
    await userEvent.click(screen.getByText('login'));
    await waitFor(() => expect(info).toHaveBeenCalled());
    expect(screen.getByText('error: none')).toBeInTheDocument();
    info.mockRestore();
  });

  it('signs out when the token has expired and cannot be renewed', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { manager, spies, emit } = fakeManager({ stored: user('ana@example.com') });
    render(<AuthProvider auth={manager}><Probe /></AuthProvider>);
    await screen.findByText('signed in as ana@example.com');
    act(() => emit('silentRenewError', { error: 'invalid_grant' }));
    expect(await screen.findByText('signed out')).toBeInTheDocument();
    expect(screen.getByText('error: user-token-expired')).toBeInTheDocument();
    expect(spies.removeUser).toHaveBeenCalled();
    error.mockRestore();
  });

  it('on sign-out revokes the refresh token, forgets the user, then visits the provider', async () => {
    const { manager, spies, leave } = fakeManager({ stored: user('ana@example.com') });
    render(<AuthProvider auth={manager}><Probe /></AuthProvider>);
    await screen.findByText('signed in as ana@example.com');
    await userEvent.click(screen.getByText('logout'));
    expect(await screen.findByText('signed out')).toBeInTheDocument();
    expect(spies.revokeTokens).toHaveBeenCalledWith(['refresh_token']);
    expect(spies.removeUser).toHaveBeenCalledTimes(1);
    expect(leave).toHaveBeenCalledTimes(1);
    const first = (f: { mock: { invocationCallOrder: number[] } }) => f.mock.invocationCallOrder[0] ?? Infinity;
    expect(first(spies.revokeTokens)).toBeLessThan(first(spies.removeUser));
    expect(first(spies.removeUser)).toBeLessThan(first(leave));
  });

  it('still signs out when the provider cannot revoke', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { manager, spies, leave } = fakeManager({ stored: user('ana@example.com') });
    spies.revokeTokens.mockImplementation(() => Promise.reject(new Error('offline')));
    render(<AuthProvider auth={manager}><Probe /></AuthProvider>);
    await screen.findByText('signed in as ana@example.com');
    await userEvent.click(screen.getByText('logout'));
    expect(await screen.findByText('signed out')).toBeInTheDocument();
    expect(spies.removeUser).toHaveBeenCalledTimes(1);
    expect(leave).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });
});
