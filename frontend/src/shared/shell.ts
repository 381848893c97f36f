import { createContext, useContext } from 'react';

/**
 * True while the build renders the landing page's first screen into `index.html`
 * (`src/app/prerender`): only what needs no configuration, no session and no data is drawn
 * (the navbar and the hero); the app replaces it, whole, once it starts.
 */
export const ShellContext = createContext(false);

export function useShell(): boolean {
  return useContext(ShellContext);
}
