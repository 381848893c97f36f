/** The speaking screen's fixed texts (spec "Speaking screen", §4, §8). */
export const MAX_TURNS = 10;
/** Spec §9: a recording stops by itself after 60 s. */
export const RECORDING_LIMIT_S = 60;

export const SESSION_ENDED_MARK = 'SESSION TERMINÉE.';
export const ENDED_BANNER = "SESSION TERMINÉE. Vous avez atteint le nombre maximum d'échanges.";
export const ENDED_PLACEHOLDER = 'Session terminée.';
export const NO_CREDITS = 'Crédits épuisés.';
export const GENERATING_REPORT = 'Génération du rapport...';
export const TRANSCRIBING = 'Transcription en cours...';

export const CHAT_FAILED = 'Erreur lors de la génération de la réponse IA.';
export const REPORT_FAILED = 'Erreur lors de la génération du rapport de performance.';
export const SPEECH_FAILED = 'Erreur lors de la génération de la parole. Veuillez vérifier les paramètres ou réessayer.';
export const TRANSCRIPTION_FAILED = 'Sorry, there was an error transcribing your speech.';
export const RECORDING_UNSUPPORTED = 'Audio recording is not supported by your browser or the session is over.';
export const MIC_DENIED = "Microphone access was denied. Please enable it in your browser's site settings and refresh the page.";
export const MIC_NOT_FOUND = 'No microphone was found. Please ensure a microphone is connected and enabled.';
export const MIC_OTHER = 'Error accessing microphone. Please ensure you have given permission in your browser settings.';

export const NO_TOPIC_TITLE = 'Erreur';
export const NO_TOPIC_TEXT = 'Aucun sujet de conversation disponible.';
export const MISSING_TITLE = 'Titre non disponible';
export const MISSING_CONTENT = 'Contenu non disponible.';

/** The spec §8 text for a getUserMedia failure. */
export function microphoneError(err: unknown): string {
  const name = typeof err === 'object' && err !== null && 'name' in err ? String(err.name) : '';
  if (name === 'NotAllowedError' || name === 'PermissionDeniedError' || name === 'SecurityError') return MIC_DENIED;
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError') return MIC_NOT_FOUND;
  return MIC_OTHER;
}

/** 0:SS (a recording lasts at most a minute), m:ss for the session clock. */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
