import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { StaticAuthProvider, type AuthContextValue } from '@/shared/auth';
import { ConfigProvider, type AppConfig } from '@/shared/config';
import { StaticProfileProvider, type ProfileContextValue } from '@/shared/profile';
import { ShellContext } from '@/shared/shell';
import { routes } from '../routes';

/** Not used by what the shell draws (the footer and pricing are left out); never shown. */
const NO_CONFIG: AppConfig = {
  auth: { authority: 'about:blank', clientId: 'shell', scope: 'openid' },
  supportEmail: 'shell@invalid',
  social: { facebook: 'about:blank', instagram: 'about:blank', youtube: 'about:blank', tiktok: 'about:blank' },
};

/** The session is not read yet: the navbar draws neither "Login" nor a user's menu. */
const NOT_READY: AuthContextValue = {
  ready: false,
  user: null,
  isLoggedIn: false,
  lastError: null,
  login: () => Promise.resolve(),
  logout: () => Promise.resolve(),
};

const NO_PROFILE: ProfileContextValue = {
  state: { status: 'signed-out' },
  me: null,
  refresh: () => Promise.resolve(),
  acceptTerms: () => Promise.resolve(),
};

/**
 * The landing page's first screen as HTML, through the real route table and components, for
 * `index.html`: the browser paints it before any script runs (`scripts/prerender.mjs`).
 */
export async function renderLandingShell(): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://shell.invalid/'));
  if (context instanceof Response) throw new Error(`prerender: the route table answered ${context.status} for /`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <ShellContext value={true}>
      <ConfigProvider config={NO_CONFIG}>
        <StaticAuthProvider value={NOT_READY}>
          <StaticProfileProvider value={NO_PROFILE}>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </StaticProfileProvider>
        </StaticAuthProvider>
      </ConfigProvider>
    </ShellContext>,
  );
}
