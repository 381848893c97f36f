import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readAttempt, renderQuiz, seedAttempt, serve } from './quizTestKit';
import { NOTE_SECONDS, TONE_LEVEL, TONE_NOTES } from './tone';

const play = vi.fn(() => Promise.resolve());

beforeEach(() => {
  play.mockClear();
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function audioElement(): HTMLAudioElement {
  const audio = document.querySelector('audio');
  if (!audio) throw new Error('no audio element');
  return audio;
}

/** The recording of the question on screen starts playing (at `seconds`). */
function startPlaying(seconds = 0) {
  const audio = audioElement();
  audio.currentTime = seconds;
  fireEvent.playing(audio);
}

/** A minimal Web Audio context that records what the sound check schedules. */
function fakeAudioContext() {
  const oscillators: { frequency: number; started: number; stopped: number }[] = [];
  const gains: number[] = [];
  const resume = vi.fn(() => Promise.resolve());
  class FakeContext {
    currentTime = 0;
    destination = {};
    resume = resume;
    close = vi.fn(() => Promise.resolve());
    createOscillator() {
      const o = { frequency: 0, started: -1, stopped: -1 };
      oscillators.push(o);
      const node = {
        type: 'sine',
        frequency: {
          set value(v: number) {
            o.frequency = v;
          },
        },
        connect: (next: unknown) => next,
        start: (t: number) => (o.started = t),
        stop: (t: number) => (o.stopped = t),
      };
      return node;
    }
    createGain() {
      const param = {
        setValueAtTime: (v: number) => gains.push(v),
        linearRampToValueAtTime: (v: number) => gains.push(v),
      };
      return { gain: param, connect: (next: unknown) => next };
    }
  }
  vi.stubGlobal('AudioContext', FakeContext);
  return { oscillators, gains, resume };
}

describe('Listening: the sound check before the paper', () => {
  it('plays a real test sound as often as wanted, then starts the test and its clock', async () => {
    const audio = fakeAudioContext();
    serve('listening');
    const user = userEvent.setup();
    renderQuiz('/quiz/listening/1');

    expect(await screen.findByRole('heading', { name: 'Check your sound' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Listening Test 1' })).toBeInTheDocument();
    expect(screen.getByText('The test sound is about as loud as the recordings in the test.')).toBeInTheDocument();
    expect(screen.getByText('The clock (40 minutes) starts when you press Start the test.')).toBeInTheDocument();
    // No attempt yet: the clock has not started.
    expect(readAttempt('listening')).toBeNull();
    expect(screen.queryByText(/Time left/)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Play the test sound' }));
    expect(audio.resume).toHaveBeenCalledTimes(1);
    expect(audio.oscillators.map((o) => o.frequency)).toEqual([...TONE_NOTES]);
    expect(audio.oscillators.every((o, i) => o.started === i * NOTE_SECONDS && o.stopped === (i + 1) * NOTE_SECONDS)).toBe(true);
    expect(Math.max(...audio.gains)).toBe(TONE_LEVEL);
    expect(screen.getByRole('button', { name: 'Playing…' })).toBeDisabled();

    await user.click(await screen.findByRole('button', { name: 'Play it again' }, { timeout: 5000 }));
    expect(audio.oscillators).toHaveLength(TONE_NOTES.length * 2);

    const before = Date.now();
    await user.click(screen.getByRole('button', { name: 'Start the test' }));
    expect(screen.getByText('Question 1 of 4')).toBeInTheDocument();
    expect(screen.getByText('Time left: 40:00')).toBeInTheDocument();
    expect(readAttempt('listening')?.deadline).toBeGreaterThanOrEqual(before + 2400_000);
  });

  it('says so when the browser cannot play the test sound, and still starts', async () => {
    vi.stubGlobal('AudioContext', undefined);
    serve('listening');
    const user = userEvent.setup();
    renderQuiz('/quiz/listening/1');
    await user.click(await screen.findByRole('button', { name: 'Play the test sound' }));
    expect(screen.getByRole('status')).toHaveTextContent('This browser cannot play the test sound. Make sure your sound is on before you start.');
    await user.click(screen.getByRole('button', { name: 'Start the test' }));
    expect(screen.getByText('Question 1 of 4')).toBeInTheDocument();
  });

  it('is skipped when the test is already under way, and for reading', async () => {
    serve('listening');
    seedAttempt('listening', { current: 2 });
    const first = renderQuiz('/quiz/listening/1');
    expect(await screen.findByText('Question 3 of 4')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Check your sound' })).not.toBeInTheDocument();
    first.unmount();

    serve('reading');
    renderQuiz('/quiz/reading/1');
    expect(await screen.findByText('Question 1 of 4')).toBeInTheDocument();
  });
});

describe('Listening: each recording plays once', () => {
  it('plays each recording once, and remembers it across a reload', async () => {
    serve('listening');
    seedAttempt('listening');
    const user = userEvent.setup();
    const first = renderQuiz('/quiz/listening/1');
    const button = await screen.findByRole('button', { name: 'Play' });
    expect(screen.queryByText('No image available for this question.')).not.toBeInTheDocument();
    const audio = audioElement();
    await user.click(button);
    // The element asked to play is the one that stays on the page.
    expect(play.mock.contexts[0]).toBe(audio);
    expect(audio.isConnected).toBe(true);
    fireEvent.playing(audio);
    expect(screen.getByRole('button', { name: 'Playing…' })).toBeDisabled();
    fireEvent.ended(audio);
    expect(screen.getByRole('button', { name: 'Recording played' })).toBeDisabled();
    expect(play).toHaveBeenCalledTimes(1);
    expect(readAttempt('listening')).toMatchObject({ played: [1], stoppedAt: {} });

    first.unmount();
    renderQuiz('/quiz/listening/1');
    expect(await screen.findByRole('button', { name: 'Recording played' })).toBeDisabled();
    // The next question's recording is still fresh.
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('button', { name: 'Play' })).toBeEnabled();
  });

  it('shows a notice when the audio fails to load; Retry fetches fresh links; the failure does not count as played', async () => {
    const calls = serve('listening');
    seedAttempt('listening');
    const user = userEvent.setup();
    renderQuiz('/quiz/listening/1');
    await screen.findByRole('button', { name: 'Play' });
    const audio = audioElement();
    expect(audio.getAttribute('src')).toBe('/media/a1.mp3?v=1');
    fireEvent.error(audio);

    expect(screen.getByRole('alert')).toHaveTextContent('The audio could not be loaded.');
    expect(readAttempt('listening')).toMatchObject({ played: [] });
    await user.click(screen.getByRole('button', { name: 'Retry' }));

    await waitFor(() => expect(document.querySelector('audio')?.getAttribute('src')).toBe('/media/a1.mp3?v=2'));
    expect(calls.gets).toBe(2);
    fireEvent.canPlay(audioElement());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Play' })).toBeEnabled();
  });

  it('resumes a recording that failed mid-clip from where it stopped, after Retry', async () => {
    serve('listening');
    seedAttempt('listening');
    const user = userEvent.setup();
    renderQuiz('/quiz/listening/1');
    await user.click(await screen.findByRole('button', { name: 'Play' }));
    startPlaying(0);
    const audio = audioElement();
    audio.currentTime = 7.5;
    fireEvent.timeUpdate(audio);
    fireEvent.error(audio);
    await user.click(await screen.findByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(document.querySelector('audio')?.getAttribute('src')).toBe('/media/a1.mp3?v=2'));
    fireEvent.canPlay(audioElement());
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(audioElement().currentTime).toBe(7.5);
  });
});

describe('Listening: moving away from a playing recording asks first', () => {
  it('asks before Next; Keep listening stays; going on stops it, and it resumes where it stopped', async () => {
    serve('listening');
    seedAttempt('listening');
    const user = userEvent.setup();
    renderQuiz('/quiz/listening/1');
    await user.click(await screen.findByRole('button', { name: 'Play' }));
    startPlaying(0);
    const audio = audioElement();
    audio.currentTime = 12.4;
    fireEvent.timeUpdate(audio);
    expect(readAttempt('listening')).toMatchObject({ played: [1], stoppedAt: { 1: 12.4 } });

    await user.click(screen.getByRole('button', { name: 'Next' }));
    let dialog = screen.getByRole('dialog', { name: 'Stop the recording?' });
    expect(dialog).toHaveTextContent(
      'The recording of question 1 is still playing. If you go to question 2, it stops. When you come back to question 1, you can resume it from where it stopped.',
    );
    // The safe choice has the focus.
    expect(within(dialog).getByRole('button', { name: 'Keep listening' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Keep listening' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Question 1 of 4')).toBeInTheDocument();
    expect(audio.isConnected).toBe(true);

    // The navigator asks too.
    await user.click(screen.getByRole('button', { name: 'Question 3, unanswered' }));
    dialog = screen.getByRole('dialog', { name: 'Stop the recording?' });
    await user.click(within(dialog).getByRole('button', { name: 'Go to question 3' }));
    expect(screen.getByText('Question 3 of 4')).toBeInTheDocument();

    // Nothing plays now: moving needs no confirmation.
    await user.click(screen.getByRole('button', { name: 'Question 1, unanswered' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('The recording stopped at 0:12. Resume it from there; it cannot be replayed from the start.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(audioElement().currentTime).toBe(12.4);
    expect(play).toHaveBeenCalledTimes(2);
    startPlaying(12.4);
    fireEvent.ended(audioElement());
    expect(screen.getByRole('button', { name: 'Recording played' })).toBeDisabled();
    expect(readAttempt('listening')).toMatchObject({ played: [1], stoppedAt: {} });
  });

  it('asks before Previous, and not once the recording has ended', async () => {
    serve('listening');
    seedAttempt('listening', { current: 1 });
    const user = userEvent.setup();
    renderQuiz('/quiz/listening/1');
    await user.click(await screen.findByRole('button', { name: 'Play' }));
    startPlaying();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByRole('dialog', { name: 'Stop the recording?' })).toHaveTextContent('If you go to question 1, it stops.');
    // The recording ends while the question is open: nothing is left to ask about.
    fireEvent.ended(audioElement());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByText('Question 1 of 4')).toBeInTheDocument();
  });

  it('asks before Finish, even with every question answered', async () => {
    const calls = serve('listening', 1);
    seedAttempt('listening', { answers: [2] }, 1);
    const user = userEvent.setup();
    renderQuiz('/quiz/listening/1');
    await user.click(await screen.findByRole('button', { name: 'Play' }));
    startPlaying();
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    const dialog = screen.getByRole('dialog', { name: 'Finish the test?' });
    expect(dialog).toHaveTextContent('The recording of question 1 is still playing. If you finish now, the rest of it is not heard. Finish anyway?');
    await user.click(within(dialog).getByRole('button', { name: 'Keep listening' }));
    expect(calls.posts).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await user.click(screen.getByRole('button', { name: 'Finish anyway' }));
    expect(await screen.findByText('results page for reading.0001.abc')).toBeInTheDocument();
    expect(calls.posts).toHaveLength(1);
  });

  it('asks before following an in-app link, and lets the learner stay or leave', async () => {
    serve('listening');
    seedAttempt('listening');
    const user = userEvent.setup();
    const { router } = renderQuiz('/quiz/listening/1');
    await user.click(await screen.findByRole('button', { name: 'Play' }));
    startPlaying();
    await user.click(screen.getByRole('link', { name: 'Somewhere else' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave the test?' });
    expect(dialog).toHaveTextContent(
      'The recording of question 1 is still playing. If you leave this page, it stops. When you come back to this test, you can resume it from where it stopped; the clock keeps running while you are away.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Keep listening' }));
    expect(router.state.location.pathname).toBe('/quiz/listening/1');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Somewhere else' }));
    await user.click(screen.getByRole('button', { name: 'Leave this page' }));
    expect(await screen.findByText('another page')).toBeInTheDocument();
  });

  it('has the browser ask before closing or reloading the tab while a recording plays, and only then', async () => {
    serve('listening');
    seedAttempt('listening');
    const user = userEvent.setup();
    renderQuiz('/quiz/listening/1');
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    await user.click(await screen.findByRole('button', { name: 'Play' }));
    expect(unload()).toBe(false);
    startPlaying();
    expect(unload()).toBe(true);
    fireEvent.ended(audioElement());
    expect(unload()).toBe(false);
  });

  it('resumes after a reload mid-clip from where it stopped, instead of showing Played', async () => {
    serve('listening');
    seedAttempt('listening');
    const user = userEvent.setup();
    const first = renderQuiz('/quiz/listening/1');
    await user.click(await screen.findByRole('button', { name: 'Play' }));
    startPlaying(0);
    const audio = audioElement();
    audio.currentTime = 9.2;
    fireEvent.timeUpdate(audio);
    first.unmount();

    renderQuiz('/quiz/listening/1');
    expect(await screen.findByRole('button', { name: 'Resume' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Recording played' })).not.toBeInTheDocument();
    expect(screen.getByText('The recording stopped at 0:09. Resume it from there; it cannot be replayed from the start.')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Recording progress' })).toHaveAttribute('aria-valuetext', '0:09 of 0:00');
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(play.mock.contexts[1]).toBe(audioElement());
    expect(audioElement().currentTime).toBe(9.2);
  });

  it('does not ask when time runs out during a recording: the test finishes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = serve('listening');
    seedAttempt('listening', { deadline: Date.now() + 3000 });
    renderQuiz('/quiz/listening/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Play' }));
    startPlaying();
    await act(() => vi.advanceTimersByTimeAsync(4000));
    await vi.waitFor(() => expect(calls.posts).toHaveLength(1));
    await vi.waitFor(() => expect(screen.getByText('results page for reading.0001.abc')).toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.posts).toHaveLength(1);
  });
});
