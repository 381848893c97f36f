#!/usr/bin/env python3
"""Measures the rendered listening audio with sox: length, speaking rate, loudness and peaks.

    make audio-report            (publishes first, then measures data/media/listening)
    scripts/audio-report.py [--media DIR] [--content DIR] [--tests 1,2]

For every listening question it finds the clip `listening/<test>/qNN-<hash>.mp3` (the newest, when
older renders of a changed script are still there), decodes it with ffmpeg, and reads its duration
(`soxi -D`) and its RMS and peak levels (`sox … -n stats`). It prints one line per paper and every
clip that is out of bounds, and exits 1 if any is. Bounds:
- duration: the part's usual length (see LIMITS), and 110 to 200 words a minute;
- loudness: RMS within 3 dB of the paper's median, peak at or below -1 dBFS, and not silent.
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# Seconds a clip of each part should last (the real paper: short announcements, interviews of a minute or more).
LIMITS = {
    "image-matching": (10, 40), "announcements": (12, 45), "voicemails": (18, 60),
    "street-interviews": (30, 90), "radio": (30, 90), "interviews": (60, 130), "reports": (60, 140),
}
WPM = (110, 200)


def measure(mp3: Path, tmp: Path) -> dict:
    wav = tmp / "clip.wav"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", str(mp3), str(wav)], check=True)
    duration = float(subprocess.run(["soxi", "-D", str(wav)], check=True, capture_output=True, text=True).stdout)
    stats = subprocess.run(["sox", str(wav), "-n", "stats"], check=True, capture_output=True, text=True).stderr
    values = {}
    for line in stats.splitlines():
        parts = line.rsplit(None, 1)
        if len(parts) == 2:
            values[parts[0].strip()] = parts[1]
    return {"duration": duration, "rms": float(values["RMS lev dB"]), "peak": float(values["Pk lev dB"])}


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--media", type=Path, default=root / "data/media")
    ap.add_argument("--content", type=Path, default=root / "content")
    ap.add_argument("--tests", help="comma-separated test ids (default: all)")
    args = ap.parse_args()
    wanted = {int(t) for t in args.tests.split(",")} if args.tests else None

    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted((args.content / "listening").glob("test-*.json")):
            test = json.loads(path.read_text())
            if wanted and test["id"] not in wanted:
                continue
            rows = []
            for q in test["questions"]:
                at = f"listening {test['id']} Q{q['number']}"
                clips = sorted((args.media / "listening" / str(test["id"])).glob(f"q{q['number']:02}-*.mp3"),
                               key=lambda p: p.stat().st_mtime)
                if not clips:
                    problems.append(f"{at}: no rendered clip (run `tef-local publish`)")
                    continue
                m = measure(clips[-1], Path(tmp))
                words = sum(len(line["text"].split()) for line in q["audio"])
                m.update(q=q, at=at, wpm=words / m["duration"] * 60)
                rows.append(m)
                lo, hi = LIMITS[q["part"]]
                if not lo <= m["duration"] <= hi:
                    problems.append(f"{at} ({q['part']}): {m['duration']:.1f} s, expected {lo}-{hi} s")
                if not WPM[0] <= m["wpm"] <= WPM[1]:
                    problems.append(f"{at}: {m['wpm']:.0f} words a minute")
                if m["peak"] > -1.0:
                    problems.append(f"{at}: peak {m['peak']:.1f} dBFS")
            if not rows:
                continue
            median_rms = statistics.median(r["rms"] for r in rows)
            for r in rows:
                if abs(r["rms"] - median_rms) > 3 or r["rms"] < -50:
                    problems.append(f"{r['at']}: RMS {r['rms']:.1f} dB, paper median {median_rms:.1f} dB")
            d = [r["duration"] for r in rows]
            print(f"listening {test['id']:>2}: {len(rows)} clips, {sum(d) / 60:.1f} min of audio, "
                  f"{min(d):.0f}-{max(d):.0f} s a clip, "
                  f"{statistics.median(r['wpm'] for r in rows):.0f} words/min, "
                  f"RMS {min(r['rms'] for r in rows):.1f} to {max(r['rms'] for r in rows):.1f} dB, "
                  f"peak max {max(r['peak'] for r in rows):.1f} dBFS")
    for p in problems:
        print("  " + p)
    print(f"{len(problems)} clips out of bounds" if problems else "every clip within bounds")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
