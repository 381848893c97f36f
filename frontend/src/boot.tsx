// The app: configuration, then the providers and the route table (loaded by main.tsx).
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/App';
import { authLoader } from '@/shared/auth';
import { loadConfig } from '@/shared/config';

const root = createRoot(document.getElementById('root') as HTMLElement);

loadConfig()
  .then((config) => {
    // A transition: the first render yields to the browser between components instead of
    // holding the main thread for the whole page.
    startTransition(() => {
      root.render(
        <StrictMode>
          <App config={config} auth={authLoader(config)} />
        </StrictMode>,
      );
    });
  })
  .catch((err: unknown) => {
    console.error(err);
    root.render(
      <div className="boot-error" role="alert">
        <h1>Unexpected Application Error!</h1>
        <p>The application could not start. Please reload the page.</p>
      </div>,
    );
  });
