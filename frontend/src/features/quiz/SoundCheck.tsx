import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { QuizTest } from '@/shared/api/types';
import { PAPER_LABEL } from './paper';
import { scheduleTestTone } from './tone';

type Sound = 'idle' | 'playing' | 'played' | 'unsupported' | 'failed';

function SpeakerIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4z" fill="currentColor" />
      <path d="M15.5 9a4 4 0 0 1 0 6M18 6.5a7.5 7.5 0 0 1 0 11" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function audioContextClass(): typeof AudioContext | null {
  const w = window as Window & { webkitAudioContext?: typeof AudioContext };
  return typeof window.AudioContext === 'function' ? window.AudioContext : (w.webkitAudioContext ?? null);
}

/**
 * Before a listening paper: a test sound to replay at will and a volume hint, then 'Start the
 * test', which starts the clock. Shown only when no attempt of this test is under way.
 */
export function SoundCheck({ test, onStart }: { test: QuizTest; onStart: () => void }) {
  const [sound, setSound] = useState<Sound>('idle');
  const context = useRef<AudioContext | null>(null);
  const timer = useRef(0);
  const label = PAPER_LABEL[test.category];
  const minutes = Math.round(test.timeLimitSeconds / 60);

  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      void context.current?.close().catch(() => undefined);
    },
    [],
  );

  const play = async () => {
    const Ctor = audioContextClass();
    if (!Ctor) {
      setSound('unsupported');
      return;
    }
    try {
      const ctx = context.current ?? new Ctor();
      context.current = ctx;
      await ctx.resume();
      const seconds = scheduleTestTone(ctx);
      setSound('playing');
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setSound('played'), seconds * 1000 + 100);
    } catch (err) {
      console.error('The test sound could not be played', err);
      setSound('failed');
    }
  };

  return (
    <section className="page page-narrow sound-check" aria-labelledby="sound-check-title">
      <header className="quiz-head">
        <span className="pill">{label}</span>
        <h1 className="quiz-title">{test.title}</h1>
      </header>
      <div className="card sound-check-card">
        <h2 id="sound-check-title" className="sound-check-title">
          Check your sound
        </h2>
        <p>
          Before the clock starts, play the test sound and set your volume so that it is clear and comfortable. You can play it as often
          as you like.
        </p>
        <div className="sound-check-play">
          <button type="button" className="btn btn-secondary" onClick={() => void play()} disabled={sound === 'playing'}>
            <SpeakerIcon /> {sound === 'playing' ? 'Playing…' : sound === 'played' ? 'Play it again' : 'Play the test sound'}
          </button>
          <p className="sound-check-status" role="status">
            {sound === 'unsupported' && 'This browser cannot play the test sound. Make sure your sound is on before you start.'}
            {sound === 'failed' && 'The test sound could not be played. Check that your device is not muted, then try again.'}
          </p>
        </div>
        <ul className="sound-check-tips">
          <li>The test sound is about as loud as the recordings in the test.</li>
          <li>Headphones help you catch every word.</li>
          <li>In the test, each recording plays once, as in the exam.</li>
          <li>The clock ({minutes} minutes) starts when you press Start the test.</li>
        </ul>
        <div className="sound-check-actions">
          <button type="button" className="btn btn-accent" onClick={onStart}>
            Start the test
          </button>
          <Link to={`/section/${test.category}`} className="btn btn-ghost">
            Back to {label} Selection
          </Link>
        </div>
      </div>
    </section>
  );
}
