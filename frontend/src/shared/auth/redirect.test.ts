import { describe, expect, it } from 'vitest';
import { rememberRedirect, takeRedirect } from './redirect';

describe('remembered redirect', () => {
  it('is returned once, then cleared', () => {
    rememberRedirect('/section/listening');
    expect(takeRedirect()).toBe('/section/listening');
    expect(takeRedirect()).toBeNull();
  });

  it('refuses paths that would leave the site', () => {
    rememberRedirect('https://evil.example/');
    expect(takeRedirect()).toBeNull();
    rememberRedirect('//evil.example/');
    expect(takeRedirect()).toBeNull();
  });
});
