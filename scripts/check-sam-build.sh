#!/usr/bin/env bash
# What `make deploy` uploads, checked without an account (`make check-sam-build`): `sam build`
# builds every function of template.yaml for arm64 with cargo-lambda, exactly as infra/deploy.sh
# does, then the Runtime API test starts each built `bootstrap` under qemu, sends it API Gateway
# v2 events on the template's tables (moto) and compares its answers with the local server's.
# Slow: a release build of every function for arm64 (1 h 24 min measured on 2 cores beside other builds),
# so it is not part of `make test`, which runs the same test on the native debug binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-tools.sh sam-build
export PATH="$PWD/.tools/lambda/bin:$PATH" SAM_CLI_TELEMETRY=0 AWS_DEFAULT_REGION=${AWS_DEFAULT_REGION:-ca-central-1}
.tools/venv/bin/sam build --template template.yaml
file .aws-sam/build/*/bootstrap | grep -v 'ARM aarch64' && { echo "a bootstrap is not an arm64 binary" >&2; exit 1; }
TEF_LAMBDA_SAM_BUILD="$PWD/.aws-sam/build" \
  TEF_LAMBDA_LAUNCHER="qemu-aarch64-static -L /usr/aarch64-linux-gnu" \
  scripts/with-moto.sh cargo test -q -p local --test integration runtime_api -- --nocapture
echo "==> every function built by sam build answered through the Runtime API as the local server does"
