import { useCallback, useRef, useState } from 'react';

/** Signed media links live 15 minutes; after this age a load failure is most likely an expired link. */
export const MEDIA_LINKS_STALE_AFTER_MS = 10 * 60 * 1000;

export interface MediaRecovery {
  /** Changes after every refresh attempt: use it in media elements' keys so they load again. */
  generation: number;
  /** True while fresh links are being fetched. */
  refreshing: boolean;
  /** The user's Retry: fetch fresh links, then reload the media. */
  retry: () => void;
  /**
   * Called when a media element fails. Returns true when a silent refresh is running
   * (links probably expired): show a neutral placeholder, the element reloads by itself.
   * Returns false when the failure must be shown, with a Retry.
   */
  recover: () => boolean;
}

/**
 * Media failures and their recovery for a page whose data carries signed links.
 * `refresh` fetches the data again (new links) and stores it; `issuedAt` is when the
 * current links were issued (ms since the epoch).
 */
export function useMediaRecovery(refresh: () => Promise<void>, issuedAt: number): MediaRecovery {
  const [generation, setGeneration] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  const inFlight = useRef(false);
  const autoRefreshedFor = useRef<number | null>(null);

  const run = useCallback(() => {
    if (inFlight.current) return;
    inFlight.current = true;
    setRefreshing(true);
    refresh()
      .catch((err: unknown) => console.error('Could not refresh the media links', err))
      .finally(() => {
        inFlight.current = false;
        setRefreshing(false);
        // Remount either way: fresh links load; after a failed refresh the old link fails again and shows the notice.
        setGeneration((g) => g + 1);
      });
  }, [refresh]);

  const recover = useCallback(() => {
    if (inFlight.current) return true;
    const stale = Date.now() - issuedAt >= MEDIA_LINKS_STALE_AFTER_MS;
    if (stale && autoRefreshedFor.current !== issuedAt) {
      autoRefreshedFor.current = issuedAt;
      run();
      return true;
    }
    return false;
  }, [issuedAt, run]);

  return { generation, refreshing, retry: run, recover };
}
