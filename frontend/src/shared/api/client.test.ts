import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/test/server';
import { api, ApiError } from './client';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('no failure');
}

describe('api client errors', () => {
  it("carries the server's error text and says it is the server's", async () => {
    server.use(
      http.post('/api/x', () => HttpResponse.json({ error: 'You already have an active subscription.' }, { status: 409 })),
    );
    const err = await failure(api.post('/api/x', {}));
    expect(err.status).toBe(409);
    expect(err.message).toBe('You already have an active subscription.');
    expect(err.fromServer).toBe(true);
  });

  it('makes up a message, marked as its own, when the server gave none', async () => {
    server.use(
      http.get('/api/empty', () => new HttpResponse('', { status: 502 })),
      http.get('/api/html', () => new HttpResponse('<h1>Bad gateway</h1>', { status: 502 })),
      http.get('/api/blank', () => HttpResponse.json({ error: '' }, { status: 400 })),
      http.get('/api/down', () => HttpResponse.error()),
    );
    for (const path of ['/api/empty', '/api/html', '/api/blank']) {
      const err = await failure(api.get(path));
      expect(err.message).toMatch(/^Request failed \(\d+\)$/);
      expect(err.fromServer).toBe(false);
    }
    const down = await failure(api.get('/api/down'));
    expect(down.status).toBe(0);
    expect(down.fromServer).toBe(false);
  });
});
