// Runs in the sign-in popup (and in silent renewal): hands the provider's answer
// back to the window that opened it. Kept tiny: it loads only oidc-client-ts.
import { UserManager } from 'oidc-client-ts';

const origin = window.location.origin;
new UserManager({ authority: origin, client_id: 'callback', redirect_uri: origin + '/auth-callback.html' })
  .signinCallback()
  .catch((err: unknown) => {
    console.error('Sign-in callback failed', err);
    document.body.textContent = 'Sign-in could not be completed. You can close this window and try again.';
  });
