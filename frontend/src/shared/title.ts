import { useEffect } from 'react';

export const SITE_NAME = 'TEF Canada Practice';
/** The landing page's title, as in index.html. */
export const HOME_TITLE = `${SITE_NAME} — Mock exams with CLB estimates`;

/** 'Reading Test 3 · TEF Canada Practice'; the landing page's title without a page name. */
export function documentTitle(page: string | null | undefined): string {
  return page ? `${page} · ${SITE_NAME}` : HOME_TITLE;
}

/** Sets the browser tab's title for the screen on show. */
export function useDocumentTitle(page: string | null | undefined): void {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
