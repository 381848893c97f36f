import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { documentTitle, HOME_TITLE, useDocumentTitle } from './title';

describe('documentTitle', () => {
  it('puts the page first and the site after it', () => {
    expect(documentTitle('Reading Test 3')).toBe('Reading Test 3 · TEF Canada Practice');
  });

  it('gives the landing page title without a page name', () => {
    expect(documentTitle(null)).toBe(HOME_TITLE);
    expect(documentTitle('')).toBe(HOME_TITLE);
  });

  it('sets and updates the tab title', () => {
    const { rerender } = renderHook(({ page }) => useDocumentTitle(page), { initialProps: { page: 'My Dashboard' } });
    expect(document.title).toBe('My Dashboard · TEF Canada Practice');
    rerender({ page: 'Page Not Found' });
    expect(document.title).toBe('Page Not Found · TEF Canada Practice');
  });
});
