/**
 * Runtime configuration, served as /config.json by the local server and written
 * next to the app by the deployment. Read once before the app renders.
 */
export interface SocialLinks {
  facebook: string;
  instagram: string;
  youtube: string;
  tiktok: string;
}

export interface AppConfig {
  auth: {
    /** OIDC issuer: the local sign-in provider, or the Cognito user pool. */
    authority: string;
    clientId: string;
    scope: string;
    /** The provider's sign-out page (Cognito `/logout`, the local provider's end-session), if any. */
    logoutUrl?: string;
  };
  supportEmail: string;
  social: SocialLinks;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function str(v: unknown, name: string): string {
  if (typeof v !== 'string' || v.length === 0) throw new Error(`config.json: ${name} is missing`);
  return v;
}

/** Validates the untrusted JSON into an AppConfig, failing loudly on a bad deploy. */
export function parseConfig(raw: unknown): AppConfig {
  if (!isRecord(raw) || !isRecord(raw.auth) || !isRecord(raw.social)) {
    throw new Error('config.json: expected {auth, supportEmail, social}');
  }
  return {
    auth: {
      authority: str(raw.auth.authority, 'auth.authority'),
      clientId: str(raw.auth.clientId, 'auth.clientId'),
      scope: typeof raw.auth.scope === 'string' ? raw.auth.scope : 'openid email profile',
      ...(typeof raw.auth.logoutUrl === 'string' && raw.auth.logoutUrl.length > 0 ? { logoutUrl: raw.auth.logoutUrl } : {}),
    },
    supportEmail: str(raw.supportEmail, 'supportEmail'),
    social: {
      facebook: str(raw.social.facebook, 'social.facebook'),
      instagram: str(raw.social.instagram, 'social.instagram'),
      youtube: str(raw.social.youtube, 'social.youtube'),
      tiktok: str(raw.social.tiktok, 'social.tiktok'),
    },
  };
}

export async function loadConfig(fetchImpl: typeof fetch = fetch): Promise<AppConfig> {
  const res = await fetchImpl('/config.json', { cache: 'no-store' });
  if (!res.ok) throw new Error(`config.json: HTTP ${res.status}`);
  return parseConfig(await res.json());
}
