# TEF Canada practice platform. The two commands that matter:
#   make run   – install, build and serve the whole product at http://127.0.0.1:8080 (PORT overrides)
#   make test  – install test tools, then run every check and test
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

CARGO ?= cargo
# make's builds start from scratch on CI and a newcomer's machine: incremental caches would only
# cost disk (about 1.6 GB). Set CARGO_INCREMENTAL=1 to keep them.
export CARGO_INCREMENTAL ?= 0
SERVER := target/debug/tef-local

.PHONY: help run build frontend server token test test-rust test-frontend lint lint-rust lint-frontend \
        lint-template fuzz openapi e2e screenshots check-sam-build deploy publish-content bench bench-corrector bench-transcriber audio-report clean

help:
	@echo "make run                       build and serve the product locally (PORT=8080)"
	@echo "make test                      run every check and test (installs what it needs)"
	@echo "make token EMAIL=a@example.com print a bearer token for that user"
	@echo "make fuzz                      schemathesis against the local API, from docs/openapi.json"
	@echo "make openapi                   rewrite docs/openapi.json from the handlers' types"
	@echo "make screenshots               landing page screenshots into artifacts/screenshots"
	@echo "make bench                     initial JS, API load (wrk), Lighthouse, Lambda start times (release)"
	@echo "make check-sam-build           sam build (arm64), each built function run under qemu via the Runtime API"
	@echo "make deploy STAGE=prod         build and deploy the AWS stack (infra/README.md)"
	@echo "make publish-content STAGE=prod upload the exam media and the built app to the stack"
	@echo "make bench-corrector           the offline writing corrector's precision, recall and speed"
	@echo "make bench-transcriber         the offline speech recogniser's word error rate and speed"
	@echo "make audio-report              length, speaking rate and loudness of every listening clip (sox)"

## ---- run -----------------------------------------------------------------

run: build
	@mkdir -p data
	@scripts/install-whisper.sh > data/whisper-install.log 2>&1 & \
	  echo "==> offline speech recognition installs in the background (about 3 min and 630 MB the first time; progress: data/whisper-install.log). Typed answers work meanwhile."
	$(SERVER) publish
	@echo "==> starting on http://127.0.0.1:$${PORT:-8080}"
	exec $(SERVER)

build: frontend server

frontend:
	scripts/ensure-tools.sh run
	cd frontend && npm run --silent build

server:
	$(CARGO) build -p local

token:
	@test -n "$(EMAIL)" || { echo "usage: make token EMAIL=someone@example.com" >&2; exit 2; }
	@$(CARGO) build -q -p local
	@$(SERVER) token "$(EMAIL)"

## ---- test ----------------------------------------------------------------

test:
	scripts/ensure-tools.sh test
	$(MAKE) lint
	$(MAKE) test-rust
	$(MAKE) fuzz
	$(MAKE) test-frontend
	$(MAKE) e2e
	@echo "==> all checks passed"

lint: lint-rust lint-frontend lint-template

lint-rust:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

lint-frontend:
	cd frontend && npm run --silent lint && npm run --silent typecheck

# All run offline: no account, no credentials. The deploy script runs against stand-ins for the
# AWS and SAM CLIs (the SAM CLI's own parser reads its parameters).
lint-template:
	.tools/venv/bin/cfn-lint template.yaml
	AWS_DEFAULT_REGION=ca-central-1 SAM_CLI_TELEMETRY=0 .tools/venv/bin/sam validate --lint --template template.yaml
	.tools/venv/bin/python infra/tests/deploy_test.py

# The DynamoDB and S3 contract suites run against moto's server, started here. The function
# binaries are built first: the Runtime API test starts each one as Lambda would.
test-rust:
	$(CARGO) build --workspace --bins
	TEF_TEST_WHISPER_DIR=$(CURDIR)/.tools/whisper scripts/with-moto.sh $(CARGO) test --workspace

# schemathesis against the debug server, from the API's OpenAPI document (built by test-rust).
fuzz: server
	scripts/fuzz-api.sh

# Rewrites docs/openapi.json from the handlers' types (a test fails while it is stale).
openapi:
	TEF_UPDATE_OPENAPI=1 $(CARGO) test -q -p shared --lib api::openapi

test-frontend:
	cd frontend && npm run --silent test

# A real browser (Debian's chromium via playwright-core) against the real local server.
# The exam media are published first into the folder the tests' server uses
# (the first time renders every listening clip; later runs render only changes).
# Then every clip's length, speaking rate and loudness are measured (fails when one is out of bounds).
e2e: build
	TEF_DATA_DIR=target/e2e-data TEF_MEDIA_DIR=target/e2e-media $(SERVER) publish | tail -n 2
	cd frontend && npm run --silent e2e
	scripts/audio-report.py --media target/e2e-media

bench: build
	scripts/bench.sh

# What make deploy uploads, checked offline: sam build (arm64, cargo-lambda), then every built
# function served through the Runtime API under qemu, answering as the local server does (over an hour on 2 cores).
check-sam-build:
	scripts/check-sam-build.sh

# Production on AWS: infra/README.md walks an operator through both.
deploy:
	infra/deploy.sh

publish-content:
	infra/publish-content.sh

# The offline writing corrector on the annotated learner corpus: precision, recall, speed.
bench-corrector:
	scripts/ensure-tools.sh run
	$(CARGO) run -q -p shared --example bench_corrector -- bench/corrector/corpus.json

# The offline speech recogniser on synthetic and recorded French: word error rate, real-time factor.
bench-transcriber:
	scripts/ensure-tools.sh run
	scripts/install-whisper.sh
	$(CARGO) run -q -p shared --example bench_transcriber -- --dir $(CURDIR)/.tools/whisper

screenshots: build
	cd frontend && TEF_SCREENSHOTS=1 npx vitest run --config vitest.e2e.config.ts e2e/screenshots.e2e.ts

# Publishes the media into data/ as `make run` does, then measures every clip.
audio-report: server
	scripts/ensure-tools.sh run
	$(SERVER) publish
	scripts/audio-report.py

clean:
	rm -rf target frontend/dist frontend/node_modules .tools
