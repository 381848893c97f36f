# faster-whisper worker for WhisperTranscriber (shared/src/adapters/whisper/mod.rs).
# One long-lived process, run by the venv's python with the model folder as argv[1]:
# JSON lines in on stdin, JSON lines out on stdout.
#   request:  {"id": 1, "path": "/tmp/answer.webm", "max_seconds": 65.0}
#   response: {"id": 1, "text": "...", "seconds": 9.8, "decode_ms": 12, "transcribe_ms": 1500}
#          or {"id": 1, "bad_audio": "..."}     (cannot be decoded, or too long)
#          or {"id": 1, "error": "..."}         (anything else)
# First line, once the model is loaded: {"ready": true, "load_ms": 350}
#                                   or {"ready": false, "error": "..."}.
# Settings: Whisper int8 on the CPU, beam 5, French, Silero VAD filter on.
# Diagnostics go to stderr, which the adapter logs.
import json
import os
import sys
import time

SAMPLE_RATE = 16000
# Shorter than this after decoding: nothing was said (and Whisper needs some audio).
MIN_SECONDS = 0.2


def out(obj):
    sys.stdout.buffer.write(json.dumps(obj, ensure_ascii=True).encode("ascii") + b"\n")
    sys.stdout.buffer.flush()


def main():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    started = time.monotonic()
    try:
        model_dir = sys.argv[1]
        from faster_whisper import WhisperModel
        from faster_whisper.audio import decode_audio

        threads = int(os.environ.get("TEF_WHISPER_THREADS", "0")) or min(os.cpu_count() or 1, 4)
        model = WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=threads)
        # Loads the VAD model now rather than on the first answer (a second of silence:
        # the VAD finds no speech, so nothing is decoded; about 0.1 s).
        import numpy

        list(model.transcribe(numpy.zeros(SAMPLE_RATE, dtype=numpy.float32), language="fr",
                              vad_filter=True)[0])
    except Exception as e:  # noqa: BLE001 - reported to the adapter, which explains the fix
        out({"ready": False, "error": f"{type(e).__name__}: {e}"})
        return
    out({"ready": True, "load_ms": int((time.monotonic() - started) * 1000), "threads": threads})

    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        rid = None
        try:
            req = json.loads(line)
            rid = req.get("id")
            out(handle(model, decode_audio, req))
        except Exception as e:  # noqa: BLE001 - one bad request must not stop the worker
            print(f"request {rid} failed: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
            out({"id": rid, "error": f"{type(e).__name__}: {e}"})


def handle(model, decode_audio, req):
    rid = req["id"]
    max_seconds = float(req.get("max_seconds", 65.0))
    t0 = time.monotonic()
    try:
        audio = decode_audio(req["path"], sampling_rate=SAMPLE_RATE)
    except Exception as e:  # noqa: BLE001 - PyAV raises many kinds of errors on bad input
        return {"id": rid, "bad_audio": f"cannot decode the recording ({type(e).__name__}: {e})"}
    seconds = len(audio) / SAMPLE_RATE
    decode_ms = int((time.monotonic() - t0) * 1000)
    if seconds > max_seconds:
        return {"id": rid, "bad_audio": f"the recording lasts {seconds:.1f} s; the limit is {max_seconds:.0f} s",
                "seconds": seconds}
    if seconds < MIN_SECONDS:
        return {"id": rid, "text": "", "seconds": seconds, "decode_ms": decode_ms, "transcribe_ms": 0}
    t1 = time.monotonic()
    segments, _info = model.transcribe(
        audio,
        language="fr",
        task="transcribe",
        beam_size=5,
        vad_filter=True,
        # Each segment stands alone: a hallucination does not propagate into the next one.
        condition_on_previous_text=False,
    )
    text = " ".join(s.text.strip() for s in segments if s.text.strip())
    return {"id": rid, "text": text.strip(), "seconds": seconds, "decode_ms": decode_ms,
            "transcribe_ms": int((time.monotonic() - t1) * 1000)}


if __name__ == "__main__":
    main()
