const pad = (n: number) => String(n).padStart(2, '0');

/** Seconds as mm:ss (the writing task lasts at most 60 minutes: 60:00). */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
}

/** What the screen reader hears: only in the last minute, and only when the text changes. */
function announcement(remaining: number): string {
  if (remaining <= 0) return 'Le temps est écoulé.';
  if (remaining > 60) return '';
  if (remaining > 30) return 'Moins d’une minute restante.';
  if (remaining > 10) return 'Moins de 30 secondes restantes.';
  return 'Moins de 10 secondes restantes.';
}

/** 'Temps Restant : mm:ss', red at 60 seconds or less. */
export function WritingTimer({ remaining }: { remaining: number }) {
  const urgent = remaining <= 60;
  return (
    <div className={`writing-timer${urgent ? ' is-urgent' : ''}`}>
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
        <circle cx="12" cy="13" r="8" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M12 9v4l2.5 2.5M9.5 2.5h5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <span>Temps Restant : {formatClock(remaining)}</span>
      <span className="sr-only" aria-live="polite" aria-atomic="true">
        {announcement(remaining)}
      </span>
    </div>
  );
}
