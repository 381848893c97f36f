import { useState } from 'react';
import { RouterProvider } from 'react-router';
import type { UserManager } from 'oidc-client-ts';
import { AuthProvider } from '@/shared/auth';
import { ConfigProvider, type AppConfig } from '@/shared/config';
import { ProfileProvider } from '@/shared/profile';
import { createRouter } from './routes';

export function App({ config, manager }: { config: AppConfig; manager: UserManager }) {
  const [router] = useState(createRouter);
  return (
    <ConfigProvider config={config}>
      <AuthProvider manager={manager}>
        <ProfileProvider>
          <RouterProvider router={router} />
        </ProfileProvider>
      </AuthProvider>
    </ConfigProvider>
  );
}
