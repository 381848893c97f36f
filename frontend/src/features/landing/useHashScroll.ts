import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Delay before scrolling, so the section has rendered (spec §2: after 100 ms). */
export const HASH_SCROLL_DELAY_MS = 100;

export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Scrolls smoothly to the element named by the address hash, 100 ms after the
 * page opens with a hash or the hash changes. Choosing the same anchor again
 * (a new history entry, same hash) scrolls again.
 */
export function useHashScroll(): void {
  const { hash, key } = useLocation();
  useEffect(() => {
    if (hash.length < 2) return;
    let id: string;
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch {
      return;
    }
    const timer = window.setTimeout(() => {
      document.getElementById(id)?.scrollIntoView({
        behavior: prefersReducedMotion() ? 'auto' : 'smooth',
        block: 'start',
      });
    }, HASH_SCROLL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [hash, key]);
}
