import { useEffect } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '@/shared/api';
import { StaticAuthProvider } from '@/shared/auth';
import { authValue, meValue } from '@/test/render';
import { server } from '@/test/server';
import { ProfileProvider, useProfile, type ProfileContextValue } from './ProfileProvider';

const active = meValue({
  subscription: { status: 'active', label: 'Active', plan: 'monthly', endDate: '2030-01-01T00:00:00Z', daysLeft: 30 },
});

/** The provider's latest value, for calling refresh() from the test. */
const latest: { profile: ProfileContextValue | null } = { profile: null };
function Probe() {
  const profile = useProfile();
  useEffect(() => {
    latest.profile = profile;
  });
  return <p data-testid="profile">{profile.state.status === 'ready' ? profile.state.me.subscription.status : profile.state.status}</p>;
}
const refresh = () => {
  if (!latest.profile) throw new Error('no profile yet');
  return latest.profile.refresh();
};

function renderProvider() {
  return render(
    <StaticAuthProvider value={authValue({ user: { uid: 'local-abc', email: 'ana@example.com' } })}>
      <ProfileProvider>
        <Probe />
      </ProfileProvider>
    </StaticAuthProvider>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ProfileProvider', () => {
  it('loads the profile, and refresh() brings every reader up to date', async () => {
    let me: Me = meValue();
    server.use(http.get('/api/me', () => HttpResponse.json(me)));
    renderProvider();
    expect(screen.getByTestId('profile')).toHaveTextContent('loading');
    await waitFor(() => expect(screen.getByTestId('profile')).toHaveTextContent('none'));

    me = active;
    await act(refresh);
    expect(screen.getByTestId('profile')).toHaveTextContent('active');
  });

  it('keeps the profile shown when a refresh fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get('/api/me', () => HttpResponse.json(active)));
    renderProvider();
    await waitFor(() => expect(screen.getByTestId('profile')).toHaveTextContent('active'));

    server.use(http.get('/api/me', () => HttpResponse.json({ error: 'boom' }, { status: 500 })));
    await act(refresh);
    expect(screen.getByTestId('profile')).toHaveTextContent('active');
  });

  it('a refresh after a failed load can recover', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get('/api/me', () => HttpResponse.error()));
    renderProvider();
    await waitFor(() => expect(screen.getByTestId('profile')).toHaveTextContent('error'));

    server.use(http.get('/api/me', () => HttpResponse.json(active)));
    await act(refresh);
    expect(screen.getByTestId('profile')).toHaveTextContent('active');
  });
});
