import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { Me } from '@/shared/api';
import { StaticAuthProvider, type AuthContextValue } from '@/shared/auth';
import { ConfigProvider, type AppConfig } from '@/shared/config';
import { StaticProfileProvider, type ProfileContextValue } from '@/shared/profile';

export const testConfig: AppConfig = {
  auth: { authority: 'http://127.0.0.1:8080/auth', clientId: 'tef-local', scope: 'openid email profile' },
  supportEmail: 'support@example.com',
  social: {
    facebook: 'https://facebook.example/tef',
    instagram: 'https://instagram.example/tef',
    youtube: 'https://youtube.example/tef',
    tiktok: 'https://tiktok.example/tef',
  },
};

export function authValue(overrides: Partial<AuthContextValue> = {}): AuthContextValue {
  const user = overrides.user === undefined ? null : overrides.user;
  return {
    ready: true,
    user,
    isLoggedIn: user !== null,
    lastError: null,
    login: vi.fn(() => Promise.resolve()),
    logout: vi.fn(() => Promise.resolve()),
    ...overrides,
  };
}

export function meValue(overrides: Partial<Me> = {}): Me {
  return {
    uid: 'local-abc',
    email: 'ana@example.com',
    registered: true,
    acceptedPrivacyPolicy: true,
    aiCredits: 3,
    speakingCredits: 3,
    subscription: { status: 'none', label: 'No Subscription', plan: null, endDate: null, daysLeft: null },
    ...overrides,
  };
}

export function profileValue(me: Me | null, overrides: Partial<ProfileContextValue> = {}): ProfileContextValue {
  return {
    state: me ? { status: 'ready', me } : { status: 'signed-out' },
    me,
    refresh: vi.fn(() => Promise.resolve()),
    acceptTerms: vi.fn(() => Promise.resolve()),
    ...overrides,
  };
}

interface Options {
  path?: string;
  routes?: RouteObject[];
  auth?: AuthContextValue;
  profile?: ProfileContextValue;
}

/** Renders `ui` at `path` inside the app's providers, with fixed auth and profile. */
export function renderWithApp(ui: ReactElement, options: Options = {}) {
  const { path = '/', auth = authValue(), profile = profileValue(null) } = options;
  const routes = options.routes ?? [{ path: '*', element: ui }];
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <ConfigProvider config={testConfig}>
      <StaticAuthProvider value={auth}>
        <StaticProfileProvider value={profile}>
          <RouterProvider router={router} />
        </StaticProfileProvider>
      </StaticAuthProvider>
    </ConfigProvider>,
  );
  return { ...result, router };
}
