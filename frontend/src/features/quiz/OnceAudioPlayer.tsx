import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { formatDuration } from '@/shared/ui/formatDuration';
import { MediaNotice } from '@/shared/ui/MediaNotice';
import type { MediaRecovery } from '@/shared/ui/useMediaRecovery';

interface Props {
  url: string;
  /** Already played (remembered across reloads). */
  played: boolean;
  media: MediaRecovery;
  /** Playback really started: from now on the recording counts as played. */
  onStarted: () => void;
  /** The recording failed before its end: it does not count as played. */
  onInterrupted: () => void;
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
 * without seeking, then 'Played'. A recording that fails to load shows a notice with Retry and
 * does not count as played.
 */
export function OnceAudioPlayer({ url, played, media, onStarted, onInterrupted }: Props) {
  const ref = useRef<HTMLAudioElement>(null);
  const [status, setStatus] = useState<Status>('ready');
  const [position, setPosition] = useState({ current: 0, duration: 0 });
  // While the recording plays, fresh links for the page must neither change nor remount the element.
  const [locked, setLocked] = useState<{ src: string; key: string } | null>(null);

  const started = status === 'playing' || status === 'paused' || status === 'starting';
  const done = status === 'ended' || (played && !started);

  const src = locked?.src ?? url;
  const audioKey = locked?.key ?? `${url}#${media.generation}`;

  const fail = () => {
    if (status === 'ended') return;
    if (status === 'playing' || status === 'paused') onInterrupted();
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

  const play = () => {
    const el = ref.current;
    if (!el) return;
    setStatus('starting');
    setLocked({ src, key: audioKey });
    el.play().catch((err: unknown) => {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      console.error('The recording could not be played', err);
      fail();
    });
  };

  const resume = () => {
    ref.current?.play().catch((err: unknown) => {
      console.error('The recording could not be resumed', err);
      fail();
    });
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
          if (status === 'waiting') setStatus('ready');
        }}
        onCanPlay={() => {
          if (status === 'waiting') setStatus('ready');
        }}
        onPlaying={() => {
          setStatus('playing');
          onStarted();
        }}
        onPause={(e) => {
          if (!e.currentTarget.ended && status === 'playing') setStatus('paused');
        }}
        onTimeUpdate={(e) => {
          const el = e.currentTarget;
          setPosition({ current: el.currentTime, duration: Number.isFinite(el.duration) ? el.duration : 0 });
        }}
        onEnded={() => {
          setStatus('ended');
          setLocked(null);
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
            {status === 'paused' ? (
              <button type="button" className="btn btn-primary once-audio-button" onClick={resume}>
                <PlayIcon /> Resume
              </button>
            ) : (
              <button type="button" className="btn btn-primary once-audio-button" onClick={play} disabled={status !== 'ready'}>
                <PlayIcon /> {status === 'playing' ? 'Playing…' : status === 'starting' || status === 'waiting' ? 'Loading…' : 'Play'}
              </button>
            )}
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
            {status === 'paused'
              ? 'The recording was interrupted. Resume it; it cannot be replayed.'
              : 'You can play this recording once, as in the exam. Stay on this question until it ends.'}
          </p>
        </>
      )}
    </div>
  );
}
