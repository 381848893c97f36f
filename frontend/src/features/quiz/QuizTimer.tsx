import { formatDuration } from '@/shared/ui/formatDuration';

/** What the screen reader hears: only in the last minute, and only when the text changes. */
function announcement(remaining: number): string {
  if (remaining > 60 || remaining <= 0) return '';
  if (remaining > 30) return 'Less than one minute left.';
  if (remaining > 10) return 'Less than 30 seconds left.';
  return 'Less than 10 seconds left.';
}

/** 'Time left: m:ss' (h:mm:ss from an hour), red at 60 seconds or less. */
export function QuizTimer({ remaining }: { remaining: number }) {
  const urgent = remaining <= 60;
  return (
    <div className={`quiz-timer${urgent ? ' is-urgent' : ''}`}>
      <svg className="quiz-timer-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
        <circle cx="12" cy="13" r="8" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M12 9v4l2.5 2.5M9.5 2.5h5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <span className="quiz-timer-text">Time left: {formatDuration(remaining)}</span>
      <span className="sr-only" aria-live="polite" aria-atomic="true">
        {announcement(remaining)}
      </span>
    </div>
  );
}
