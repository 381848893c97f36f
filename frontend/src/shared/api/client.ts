/**
 * The one API client. Every call to the server goes through `api`, which adds
 * the signed-in user's token and turns failures into ApiError.
 */
export class ApiError extends Error {
  readonly status: number;
  /** True when `message` is the server's own `error` text, not one made up here. */
  readonly fromServer: boolean;
  constructor(status: number, message: string, fromServer = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fromServer = fromServer;
  }
}

type TokenSource = () => string | null;
type UnauthorizedHandler = () => void;

let tokenSource: TokenSource = () => null;
let onUnauthorized: UnauthorizedHandler = () => undefined;

/** Wired once by the auth provider. */
export function configureApi(source: TokenSource, unauthorized: UnauthorizedHandler): void {
  tokenSource = source;
  onUnauthorized = unauthorized;
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = tokenSource();
  if (token) headers.Authorization = `Bearer ${token}`;
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'Network error. Please check your connection and try again.');
  }
  const text = await res.text();
  let json: unknown = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (!res.ok) {
    if (res.status === 401 && token) onUnauthorized();
    const serverText =
      typeof json === 'object' && json !== null && 'error' in json && typeof json.error === 'string' && json.error
        ? json.error
        : null;
    throw new ApiError(res.status, serverText ?? `Request failed (${res.status})`, serverText !== null);
  }
  return json as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
};
