import { useState } from 'react';
import { useAuth } from '@/shared/auth';
import { useProfile } from '@/shared/profile';
import { Modal } from '@/shared/ui/Modal';

/**
 * The privacy-policy and terms acceptance modal (spec §4): shown after login
 * while the user document is missing or lacks the accepted flag. The server
 * records the acceptance and sets the starting credits.
 */
export function TermsModal() {
  const { isLoggedIn } = useAuth();
  const { me, acceptTerms } = useProfile();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  if (!isLoggedIn || !me || me.acceptedPrivacyPolicy) return null;

  const accept = async () => {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    try {
      await acceptTerms();
    } catch (err) {
      console.error('Accepting the terms failed', err);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="Privacy Policy and Terms of Use"
      // A long text: open at its start with the title focused, not scrolled down to Accept (phones).
      initialFocus="heading"
      actions={
        <button type="button" className="btn btn-primary" onClick={() => void accept()} disabled={busy}>
          Accept
        </button>
      }
    >
      <p>Welcome! Before you start practising, please read and accept how this service works.</p>
      <ul className="terms-list">
        <li>
          This platform is for <strong>educational practice only</strong>. It is not affiliated with, endorsed by or
          connected to the owner of the TEF Canada test or any official testing body. Scores and CLB levels shown here
          are estimates, not official results.
        </li>
        <li>
          The writing you submit and the conversations you have with the AI examiner, including voice recordings, may
          be processed by third-party AI and speech-transcription providers to produce corrections and feedback.
        </li>
        <li>
          We store your e-mail address, your practice results and your credits so you can follow your progress. We do
          not store card data: payments are handled by our card payment provider.
        </li>
        <li>You can ask us to delete your account and data at any time by writing to support.</li>
      </ul>
      {failed && (
        <p className="error-text" role="alert">
          Your acceptance could not be saved. Please check your connection and try again.
        </p>
      )}
    </Modal>
  );
}
