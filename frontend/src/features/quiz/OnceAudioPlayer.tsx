import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { formatDuration } from '@/shared/ui/formatDuration';
import { MediaNotice } from '@/shared/ui/MediaNotice';
import type { MediaRecovery } from '@/shared/ui/useMediaRecovery';

/** Where a recording stands, as remembered for the attempt (across reloads). */
export type ClipProgress =
  /** Never played. */
  | { kind: 'fresh' }
  /** Started, then stopped at `at` seconds (page reloaded or left mid-clip, or an interruption): it resumes from there. */
  | { kind: 'stopped'; at: number }
  /** Heard to the end. */
  | { kind: 'played' };

interface Props {
  url: string;
  /** Read when the player mounts. */
  progress: ClipProgress;
  media: MediaRecovery;
  /** Playback is under way at `seconds` (about once a second, and when it starts or pauses): from now on it counts as played. */
  onPosition: (seconds: number) => void;
  /** The recording was heard to its end. */
  onEnded: () => void;
  /** Whether the recording is audibly playing now (the quiz then asks before moving away). */
  onPlayingChange: (playing: boolean) => void;
}

/** A recording that has not started this long after Play is treated as failed (a stalled link). */
export const START_TIMEOUT_MS = 15_000;

type Status = 'ready' | 'starting' | 'playing' | 'paused' | 'ended' | 'waiting' | 'failed';

function PlayIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * A listening question's recording, playable once as in the exam (spec §1): Play, a progress bar
 * without seeking, then 'Played'. A recording stopped before its end (a reload, leaving the
 * question, a failed link) resumes from where it stopped. A recording that fails to load shows a
 * notice with Retry.
 */
export function OnceAudioPlayer({ url, progress, media, onPosition, onEnded, onPlayingChange }: Props) {
  const ref = useRef<HTMLAudioElement>(null);
  const [status, setStatus] = useState<Status>(() => (progress.kind === 'stopped' ? 'paused' : 'ready'));
  const [position, setPosition] = useState(() => ({ current: progress.kind === 'stopped' ? progress.at : 0, duration: 0 }));
  // Where playback resumes after a stop; null while the recording has never started.
  const [resumeAt, setResumeAt] = useState<number | null>(progress.kind === 'stopped' ? progress.at : null);
  const reported = useRef(-Infinity);
  // While the recording plays, fresh links for the page must neither change nor remount the element.
  const [locked, setLocked] = useState<{ src: string; key: string } | null>(null);

  const started = status === 'playing' || status === 'paused' || status === 'starting';
  const done = status === 'ended' || (progress.kind === 'played' && !started);

  const src = locked?.src ?? url;
  const audioKey = locked?.key ?? `${url}#${media.generation}`;

  const playing = status === 'playing';
  const notifyPlaying = useEffectEvent((p: boolean) => onPlayingChange(p));
  useEffect(() => {
    notifyPlaying(playing);
  }, [playing]);
  useEffect(() => () => notifyPlaying(false), []);

  const report = (seconds: number) => {
    setResumeAt(seconds);
    reported.current = seconds;
    onPosition(seconds);
  };

  const fail = () => {
    if (status === 'ended') return;
    setLocked(null);
    setStatus(media.recover() ? 'waiting' : 'failed');
  };

  const startTimedOut = useEffectEvent(() => {
    ref.current?.pause();
    fail();
  });
  useEffect(() => {
    if (status !== 'starting') return;
    const id = window.setTimeout(() => startTimedOut(), START_TIMEOUT_MS);
    return () => window.clearTimeout(id);
  }, [status]);

  /** Plays from the start, or resumes where the recording stopped. */
  const play = () => {
    const el = ref.current;
    if (!el) return;
    const at = resumeAt;
    if (at !== null && Math.abs(el.currentTime - at) > 0.25) el.currentTime = at;
    setStatus('starting');
    setLocked({ src, key: audioKey });
    el.play().catch((err: unknown) => {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      console.error('The recording could not be played', err);
      fail();
    });
  };

  // Back from a failed load (fresh link): ready to play, or to resume where it stopped.
  const loaded = () => {
    if (status === 'waiting') setStatus(resumeAt === null ? 'ready' : 'paused');
  };

  if (done) {
    return (
      <div className="once-audio is-played">
        <div className="once-audio-row">
          <button type="button" className="btn btn-secondary once-audio-button" disabled aria-label="Recording played">
            <CheckIcon /> Played
          </button>
          <div className="once-audio-track" role="progressbar" aria-label="Recording progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={100}>
            <span className="once-audio-fill" style={{ width: '100%' }} />
          </div>
        </div>
        <p className="once-audio-hint">This recording has been played. Each recording plays once, as in the exam.</p>
      </div>
    );
  }

  const percent = position.duration > 0 ? Math.min(100, Math.round((position.current / position.duration) * 100)) : 0;
  const stopped = status === 'paused' || ((status === 'waiting' || status === 'starting') && resumeAt !== null);
  const label = status === 'playing' ? 'Playing…' : status === 'starting' || status === 'waiting' ? 'Loading…' : status === 'paused' ? 'Resume' : 'Play';

  return (
    <div className={`once-audio${status === 'failed' ? ' is-failed' : ''}`}>
      <audio
        key={audioKey}
        ref={ref}
        src={src}
        preload="auto"
        onLoadedMetadata={(e) => {
          const duration = e.currentTarget.duration;
          setPosition((p) => ({ ...p, duration: Number.isFinite(duration) ? duration : 0 }));
          loaded();
        }}
        onCanPlay={loaded}
        onPlaying={(e) => {
          setStatus('playing');
          report(e.currentTarget.currentTime);
        }}
        onPause={(e) => {
          if (e.currentTarget.ended || status !== 'playing') return;
          setStatus('paused');
          report(e.currentTarget.currentTime);
        }}
        onTimeUpdate={(e) => {
          const el = e.currentTarget;
          if (status !== 'playing') return;
          setPosition({ current: el.currentTime, duration: Number.isFinite(el.duration) ? el.duration : 0 });
          if (Math.abs(el.currentTime - reported.current) >= 1) report(el.currentTime);
        }}
        onEnded={() => {
          setStatus('ended');
          setLocked(null);
          onEnded();
        }}
        onError={fail}
      />
      {status === 'failed' ? (
        <MediaNotice
          message="The audio could not be loaded."
          retrying={media.refreshing}
          onRetry={() => {
            setStatus('waiting');
            media.retry();
          }}
        />
      ) : (
        <>
          <div className="once-audio-row">
            <button
              type="button"
              className="btn btn-primary once-audio-button"
              onClick={play}
              disabled={status !== 'ready' && status !== 'paused'}
            >
              <PlayIcon /> {label}
            </button>
            <div
              className="once-audio-track"
              role="progressbar"
              aria-label="Recording progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              aria-valuetext={`${formatDuration(position.current)} of ${formatDuration(position.duration)}`}
            >
              <span className="once-audio-fill" style={{ width: `${percent}%` }} />
            </div>
            <span className="once-audio-time" aria-hidden="true">
              {formatDuration(position.current)} / {formatDuration(position.duration)}
            </span>
          </div>
          <p className="once-audio-hint">
            {stopped
              ? `The recording stopped at ${formatDuration(resumeAt ?? 0)}. Resume it from there; it cannot be replayed from the start.`
              : 'You can play this recording once, as in the exam. Stay on this question until it ends.'}
          </p>
        </>
      )}
    </div>
  );
}
