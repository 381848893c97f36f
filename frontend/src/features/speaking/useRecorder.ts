import { useCallback, useEffect, useRef, useState } from 'react';
import { microphoneError, RECORDING_LIMIT_S, RECORDING_UNSUPPORTED } from './messages';

export type RecorderState = 'idle' | 'recording' | 'processing';

interface Active {
  recorder: MediaRecorder;
  stream: MediaStream;
  chunks: Blob[];
  startedAt: number;
  /** Cancelled: the recording is thrown away when it stops. */
  discard: boolean;
}

/** Whether this browser can record at all. */
export function canRecord(): boolean {
  const w = window as { MediaRecorder?: unknown };
  const devices = (navigator as { mediaDevices?: { getUserMedia?: unknown } }).mediaDevices;
  return typeof w.MediaRecorder === 'function' && typeof devices?.getUserMedia === 'function';
}

function pickMimeType(): string | undefined {
  const recorder = window.MediaRecorder as { isTypeSupported?: (type: string) => boolean };
  if (typeof recorder.isTypeSupported !== 'function') return undefined;
  return ['audio/webm;codecs=opus', 'audio/webm'].find((t) => window.MediaRecorder.isTypeSupported(t));
}

/**
 * The microphone (spec §4 "Recording"): idle, recording (at most 60 s, then it stops and sends by
 * itself), then the finished webm recording goes to `onRecorded` (the caller transcribes it).
 * Cancel throws the recording away. Failures give the spec's §8 texts through `onError`.
 */
export function useRecorder(onRecorded: (audio: Blob) => Promise<void>, onError: (message: string) => void) {
  const [state, setState] = useState<RecorderState>('idle');
  const [elapsed, setElapsed] = useState(0);
  const active = useRef<Active | null>(null);
  const callbacks = useRef({ onRecorded, onError });
  useEffect(() => {
    callbacks.current = { onRecorded, onError };
  });

  const stop = useCallback((discard: boolean) => {
    const a = active.current;
    if (!a) return;
    a.discard = discard;
    if (a.recorder.state !== 'inactive') a.recorder.stop();
  }, []);

  // The clock, and the 60 s limit.
  useEffect(() => {
    if (state !== 'recording') return;
    const id = window.setInterval(() => {
      const a = active.current;
      if (!a) return;
      const seconds = Math.min(RECORDING_LIMIT_S, Math.floor((Date.now() - a.startedAt) / 1000));
      setElapsed(seconds);
      if (seconds >= RECORDING_LIMIT_S) stop(false);
    }, 250);
    return () => window.clearInterval(id);
  }, [state, stop]);

  // Leaving the page stops the microphone.
  useEffect(
    () => () => {
      const a = active.current;
      if (!a) return;
      a.discard = true;
      if (a.recorder.state !== 'inactive') a.recorder.stop();
      a.stream.getTracks().forEach((t) => t.stop());
    },
    [],
  );

  const start = useCallback(async (allowed: boolean) => {
    if (active.current) return;
    if (!allowed || !canRecord()) {
      callbacks.current.onError(RECORDING_UNSUPPORTED);
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      console.error('The microphone could not be opened', err);
      callbacks.current.onError(microphoneError(err));
      return;
    }
    let recorder: MediaRecorder;
    try {
      const mimeType = pickMimeType();
      recorder = mimeType ? new MediaRecorder(stream, { mimeType }) : new MediaRecorder(stream);
    } catch (err) {
      console.error('The recorder could not start', err);
      stream.getTracks().forEach((t) => t.stop());
      callbacks.current.onError(RECORDING_UNSUPPORTED);
      return;
    }
    const a: Active = { recorder, stream, chunks: [], startedAt: Date.now(), discard: false };
    active.current = a;
    recorder.ondataavailable = (e: BlobEvent) => {
      if (e.data.size > 0) a.chunks.push(e.data);
    };
    recorder.onstop = () => {
      stream.getTracks().forEach((t) => t.stop());
      active.current = null;
      setElapsed(0);
      if (a.discard) {
        setState('idle');
        return;
      }
      const blob = new Blob(a.chunks, { type: recorder.mimeType || 'audio/webm' });
      if (blob.size === 0) {
        console.warn('The recording is empty: nothing to send.');
        setState('idle');
        return;
      }
      setState('processing');
      void callbacks.current.onRecorded(blob).finally(() => setState('idle'));
    };
    recorder.start(250);
    setElapsed(0);
    setState('recording');
  }, []);

  return {
    state,
    elapsed,
    start,
    /** Stops and sends the recording. */
    finish: useCallback(() => stop(false), [stop]),
    /** Stops and throws the recording away. */
    cancel: useCallback(() => stop(true), [stop]),
  };
}

/** Base64 of a recording, for POST /api/transcription. */
export function toBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      // A data URL: 'data:audio/webm;base64,<data>'.
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The recording could not be read.'));
    reader.readAsDataURL(blob);
  });
}
