import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ProfileProvider, useProfile } from '@/shared/profile';
import { StaticAuthProvider } from '@/shared/auth';
import { authValue, meValue } from '@/test/render';
import { server } from '@/test/server';
import { render } from '@testing-library/react';
import { TermsModal } from './TermsModal';

const ana = { uid: 'local-1', email: 'ana@example.com' };

/** Says when the profile has loaded, so a test can tell "not shown" from "not loaded yet". */
function ProfileStatus() {
  return <output aria-label="profile">{useProfile().state.status}</output>;
}

function renderModal() {
  return render(
    <StaticAuthProvider value={authValue({ user: ana })}>
      <ProfileProvider>
        <ProfileStatus />
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
    // Opens at the start of the text: the heading has focus, not Accept at the bottom.
    expect(screen.getByRole('heading', { name: 'Privacy Policy and Terms of Use' })).toHaveFocus();
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

  it('does not show for a user who already accepted, once the profile has loaded', async () => {
    server.use(http.get('/api/me', () => HttpResponse.json(meValue())));
    renderModal();
    expect(screen.getByRole('status', { name: 'profile' })).toHaveTextContent('loading');
    await waitFor(() => expect(screen.getByRole('status', { name: 'profile' })).toHaveTextContent('ready'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps Tab inside the dialog, starting from the heading', async () => {
    server.use(http.get('/api/me', () => HttpResponse.json(meValue({ acceptedPrivacyPolicy: false }))));
    renderModal();
    await screen.findByRole('dialog');
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Accept' })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Accept' })).toHaveFocus();
    screen.getByRole('heading', { name: 'Privacy Policy and Terms of Use' }).focus();
    await userEvent.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Accept' })).toHaveFocus();
  });
});
