import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ProfileProvider } from '@/shared/profile';
import { StaticAuthProvider } from '@/shared/auth';
import { authValue, meValue } from '@/test/render';
import { server } from '@/test/server';
import { render } from '@testing-library/react';
import { TermsModal } from './TermsModal';

const ana = { uid: 'local-1', email: 'ana@example.com' };

function renderModal() {
  return render(
    <StaticAuthProvider value={authValue({ user: ana })}>
      <ProfileProvider>
        <TermsModal />
      </ProfileProvider>
    </StaticAuthProvider>,
  );
}

describe('TermsModal', () => {
  it('shows for a new user and closes once the server records the acceptance', async () => {
    let accepted = 0;
    server.use(
      http.get('/api/me', () => HttpResponse.json(meValue({ registered: false, acceptedPrivacyPolicy: false }))),
      http.post('/api/me/privacy-acceptance', () => {
        accepted += 1;
        return HttpResponse.json(meValue());
      }),
    );
    renderModal();
    expect(await screen.findByRole('dialog', { name: 'Privacy Policy and Terms of Use' })).toBeInTheDocument();
    expect(screen.getByText(/not affiliated with/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(accepted).toBe(1);
  });

  it('stays open with a message when saving fails', async () => {
    server.use(
      http.get('/api/me', () => HttpResponse.json(meValue({ acceptedPrivacyPolicy: false }))),
      http.post('/api/me/privacy-acceptance', () => HttpResponse.json({ error: 'x' }, { status: 500 })),
    );
    renderModal();
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be saved');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('does not show for a user who already accepted', async () => {
    let calls = 0;
    server.use(
      http.get('/api/me', () => {
        calls += 1;
        return HttpResponse.json(meValue());
      }),
    );
    renderModal();
    await waitFor(() => expect(calls).toBe(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
