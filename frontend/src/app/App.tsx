import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AuthProvider, type AuthLoader } from '@/shared/auth';
import { ConfigProvider, type AppConfig } from '@/shared/config';
import { ProfileProvider } from '@/shared/profile';
import { createRouter } from './routes';

export function App({ config, auth }: { config: AppConfig; auth: AuthLoader }) {
  const [router] = useState(createRouter);
  return (
    <ConfigProvider config={config}>
      <AuthProvider auth={auth}>
        <ProfileProvider>
          <RouterProvider router={router} />
        </ProfileProvider>
      </AuthProvider>
    </ConfigProvider>
  );
}
