/** The path a visitor wanted before the login prompt opened (spec: landing cards). */
const KEY = 'tef.redirectAfterLogin';

export function rememberRedirect(path: string): void {
  // Only same-site paths: never an open redirect.
  if (path.startsWith('/') && !path.startsWith('//')) sessionStorage.setItem(KEY, path);
}

/** Returns the stored path once, and clears it. */
export function takeRedirect(): string | null {
  const path = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  return path;
}
