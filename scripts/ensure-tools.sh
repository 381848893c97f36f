#!/usr/bin/env bash
# Installs what the build and the tests need, when it is missing. Safe to rerun.
#   ensure-tools.sh run   – what `make run` needs: frontend packages, espeak-ng, ffmpeg and sox
#   ensure-tools.sh test  – also Chromium (Debian), moto + cfn-lint + SAM CLI (PyPI, in .tools/venv)
#                           and schemathesis (PyPI, in .tools/fuzz)
#   ensure-tools.sh sam-build – also what `sam build` and its check need (make check-sam-build):
#                           cargo-lambda and zig (PyPI, in .tools/lambda), Rust's arm64 target, and
#                           qemu with arm64's C and GCC runtime libraries (Debian)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-test}"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "==> installing Debian packages: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" \
    || { as_root apt-get update -q && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; }
}

# Frontend packages, exactly as locked.
if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
  # `npm install` follows the lock file; `npm ci` (npm 11) refuses lock files that
  # list only this platform's optional binaries (rollup's), as ours does.
  echo "==> installing frontend packages"
  (cd frontend && npm install --no-audit --no-fund --loglevel=error)
fi

# The offline speech pipeline: espeak-ng speaks, ffmpeg joins and encodes, sox measures.
# The offline writing corrector: Grammalecte, run by Debian's python3.
apt_install espeak-ng ffmpeg sox python3-grammalecte

[ "$mode" = "run" ] && exit 0

# A real browser for the end-to-end tests (never a downloaded one).
apt_install chromium

# moto's server stands in for DynamoDB, S3 and SSM; cfn-lint and the SAM CLI check template.yaml.
venv=.tools/venv
if [ ! -x "$venv/bin/moto_server" ] || [ ! -x "$venv/bin/cfn-lint" ] || [ ! -x "$venv/bin/sam" ]; then
  echo "==> installing moto, cfn-lint and the SAM CLI into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check 'moto[server]>=5.1,<6' 'cfn-lint>=1,<2' 'aws-sam-cli>=1.140,<2'
fi

# schemathesis fuzzes the local API against its OpenAPI document (scripts/fuzz-api.sh); in its own
# venv, so that its pins and the SAM CLI's never meet.
if [ ! -x .tools/fuzz/bin/st ]; then
  echo "==> installing schemathesis into .tools/fuzz"
  python3 -m venv .tools/fuzz
  .tools/fuzz/bin/pip install -q --disable-pip-version-check 'schemathesis>=4.32,<5'
fi

# The offline speech recogniser (faster-whisper, Whisper base): `make run` installs it in the
# background; the tests need it now.
scripts/install-whisper.sh

[ "$mode" = "sam-build" ] || exit 0

# cargo-lambda builds each function for arm64 with zig as the linker, as `make deploy` does.
if [ ! -x .tools/lambda/bin/cargo-lambda ]; then
  echo "==> installing cargo-lambda and zig into .tools/lambda"
  python3 -m venv .tools/lambda
  .tools/lambda/bin/pip install -q --disable-pip-version-check 'cargo-lambda>=1.8,<2' ziglang
fi
rustup target add aarch64-unknown-linux-gnu
# The arm64 binaries run here under qemu, on Debian's arm64 runtime libraries.
apt_install qemu-user-static libc6-arm64-cross libgcc-s1-arm64-cross
