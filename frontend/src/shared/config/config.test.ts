import { describe, expect, it } from 'vitest';
import { parseConfig } from './config';

const good = {
  auth: { authority: 'http://127.0.0.1:8080/auth', clientId: 'tef-local', scope: 'openid email' },
  supportEmail: 'support@example.com',
  social: { facebook: 'f', instagram: 'i', youtube: 'y', tiktok: 't' },
};

describe('parseConfig', () => {
  it('accepts a complete config', () => {
    expect(parseConfig(good).auth.clientId).toBe('tef-local');
  });

  it('defaults the scope', () => {
    const auth = { authority: good.auth.authority, clientId: good.auth.clientId };
    expect(parseConfig({ ...good, auth }).auth.scope).toBe('openid email profile');
  });

  it('names what is missing', () => {
    expect(() => parseConfig({ ...good, supportEmail: '' })).toThrow('supportEmail');
    expect(() => parseConfig({ ...good, auth: { clientId: 'x' } })).toThrow('auth.authority');
    expect(() => parseConfig(null)).toThrow('config.json');
  });
});
