#!/usr/bin/env bash
# Builds every function for arm64 with cargo-lambda and deploys the stack (`make deploy STAGE=…`).
# Needs AWS credentials, the SAM CLI, cargo-lambda and zig (pip install aws-sam-cli cargo-lambda ziglang).
# The walk-through is infra/README.md.
#
# Guided the first time: what the stack needs and is not in the environment is asked for on the
# terminal (or, without one, named in an error). Later runs change only what is exported: every
# parameter left out keeps its deployed value (SAM's UsePreviousValue), so an update never blanks
# a price id or the Google provider by omission; export a variable empty to clear it.
#   STAGE                                                    (required; names stack tef-$STAGE)
#   AUTH_DOMAIN_PREFIX                                       (first run: the Cognito sign-in domain)
#   APP_DOMAIN, APP_CERTIFICATE_ARN                          (optional: your own domain, its us-east-1 certificate)
#   APP_URL                                                  (optional: defaults to https://$APP_DOMAIN, or
#                                                             CloudFront's address, set by a second pass)
#   GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET                   (optional: Google sign-in)
#   STRIPE_PRICE_MONTHLY, STRIPE_PRICE_QUARTERLY, OPENAI_BASE_URL, TEF_CORRECTION_MODEL
# Secrets never go through the stack: STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and OPENAI_API_KEY,
# when set (or typed when asked), are stored as SSM SecureString parameters /tef/$STAGE/… that the
# functions read at cold start; when not set, the parameters must already exist.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=${STAGE:?STAGE, e.g. prod}
stack="tef-$stage"
interactive() { [ -t 0 ]; }
. infra/region.sh

# A stack that does not exist, or whose creation never started (REVIEW_IN_PROGRESS, left by a
# refused change set), is a first deployment; any other error (credentials, region) stops here.
if status=$(aws cloudformation describe-stacks --stack-name "$stack" --query 'Stacks[0].StackStatus' --output text 2>&1); then
  case $status in
    REVIEW_IN_PROGRESS) first=1 ;;
    ROLLBACK_COMPLETE | ROLLBACK_FAILED)
      echo "$stack failed to create ($status). Delete it (aws cloudformation delete-stack --stack-name $stack), then run make deploy again." >&2
      exit 1 ;;
    *_IN_PROGRESS)
      echo "$stack is busy ($status): run make deploy again once it is done." >&2
      exit 1 ;;
    *) first=0 ;;
  esac
elif [[ $status == *"does not exist"* ]]; then
  first=1
else
  echo "cannot read stack $stack: $status" >&2
  exit 1
fi

# ask <variable> <question>: on the first run, a required value missing from the environment is
# asked for on the terminal; without a terminal the run stops and names the variable.
ask() {
  if [ -n "${!1:-}" ]; then return; fi
  if interactive; then
    local value=''
    while [ -z "$value" ]; do read -r -p "$2: " value; done
    printf -v "$1" '%s' "$value"
  else
    echo "$1 is needed for the first deployment: $2 (infra/README.md)" >&2
    exit 1
  fi
}

if [ "$first" = 1 ]; then
  echo "==> $stack does not exist yet: first deployment"
  ask AUTH_DOMAIN_PREFIX "Prefix of the Cognito sign-in domain, globally unique (e.g. tef-prep-auth)"
  if interactive && [ -z "${APP_DOMAIN+x}" ]; then
    read -r -p "Your own domain for the site, with its certificate in us-east-1 (empty: CloudFront's address): " APP_DOMAIN
  fi
  if [ -n "${APP_DOMAIN:-}" ]; then
    ask APP_CERTIFICATE_ARN "ARN of the ACM certificate of $APP_DOMAIN, in us-east-1"
  fi
fi
if [ -n "${APP_DOMAIN:-}" ] && [ -z "${APP_URL:-}" ]; then APP_URL="https://$APP_DOMAIN"; fi
# Without a domain, the site's address is CloudFront's, known once the distribution exists: a
# first deployment names a provisional URL, and every run that was not given one names the
# distribution's address if the stack does not already (a second pass, retried until it holds).
follow_url=0
if [ -z "${APP_URL:-}" ]; then
  follow_url=1
  if [ "$first" = 1 ]; then APP_URL=https://example.invalid; fi
fi

# The secrets, as SecureString parameters (the functions that use one may read only it). Every
# one is settled before any is written, so a run that stops for a missing one changes nothing;
# a value equal to the stored one is not written again (no new version, no function update).
secret_get() { aws ssm get-parameter --name "/tef/$stage/$1" --with-decryption --query Parameter.Value --output text 2>/dev/null; }
secret_names=() secret_values=()
settle_secret() { # <variable> <parameter> <question> [value while none is known]
  local value=${!1:-} stored
  stored=$(secret_get "$2") || stored=''
  if [ -z "$value" ] && [ -z "$stored" ]; then
    if [ -n "${4:-}" ]; then
      value=$4
    elif interactive; then
      while [ -z "$value" ]; do read -r -s -p "$3 (not echoed): " value; echo >&2; done
    else
      echo "/tef/$stage/$2 does not exist: export $1 (infra/README.md, step 2)" >&2
      exit 1
    fi
  fi
  if [ -n "$value" ] && [ "$value" != "$stored" ]; then secret_names+=("$2") secret_values+=("$value"); fi
}
settle_secret STRIPE_SECRET_KEY stripe-secret-key "Stripe secret key (sk_test_… or sk_live_…)"
# Stripe's signing secret exists once the webhook endpoint does (infra/README.md, step 4); until
# then a placeholder makes the function refuse every event.
settle_secret STRIPE_WEBHOOK_SECRET stripe-webhook-secret "Stripe webhook signing secret (whsec_…)" whsec_not_set_yet
settle_secret OPENAI_API_KEY openai-api-key "OpenAI API key"
# The media link secret is ours: made once, kept in SSM (for the functions that sign links).
if [ -z "$(secret_get media-signing-key)" ]; then
  secret_names+=(media-signing-key) secret_values+=("$(openssl rand -hex 32)")
fi
for i in ${secret_names[@]+"${!secret_names[@]}"}; do
  aws ssm put-parameter --name "/tef/$stage/${secret_names[$i]}" --type SecureString --value "${secret_values[$i]}" --overwrite >/dev/null
  echo "==> /tef/$stage/${secret_names[$i]} set"
done

# Secrets are read at cold start: when one changes, a new SecretsVersion (the parameters' SSM
# versions) changes every function's configuration, so no warm instance keeps the old value.
version() { aws ssm get-parameter --name "/tef/$stage/$1" --query Parameter.Version --output text; }
SECRETS_VERSION="$(version stripe-secret-key).$(version stripe-webhook-secret).$(version openai-api-key).$(version media-signing-key)"

# Only what is set is passed; the rest keeps its deployed value (or the template's default).
overrides=("Stage=$stage")
param() { # <template parameter> <variable>
  if [ -z "${!2+x}" ]; then return; fi
  case ${!2} in *"'"*) echo "$2 must not contain a single quote" >&2; exit 1 ;; esac
  overrides+=("$1='${!2}'") # quoted: SAM refuses a bare empty value (Key=)
}
param AuthDomainPrefix AUTH_DOMAIN_PREFIX
param AppUrl APP_URL
param AppDomain APP_DOMAIN
param AppCertificateArn APP_CERTIFICATE_ARN
param GoogleClientId GOOGLE_CLIENT_ID
param GoogleClientSecret GOOGLE_CLIENT_SECRET
param StripePriceMonthly STRIPE_PRICE_MONTHLY
param StripePriceQuarterly STRIPE_PRICE_QUARTERLY
param OpenAiBaseUrl OPENAI_BASE_URL
param CorrectionModel TEF_CORRECTION_MODEL
param SecretsVersion SECRETS_VERSION

rustup target add aarch64-unknown-linux-gnu
sam build --template template.yaml
deploy() {
  sam deploy --stack-name "$stack" --resolve-s3 --capabilities CAPABILITY_IAM --no-fail-on-empty-changeset \
    --parameter-overrides "$@"
}
deploy "${overrides[@]}"

out() { aws cloudformation describe-stacks --stack-name "$stack" --query "Stacks[0].Outputs[?OutputKey=='$1'].OutputValue" --output text; }
named_url() { aws cloudformation describe-stacks --stack-name "$stack" --query "Stacks[0].Parameters[?ParameterKey=='AppUrl'].ParameterValue" --output text; }
if [ "$follow_url" = 1 ] && [ "$(named_url)" != "$(out AppUrl)" ]; then
  APP_URL=$(out AppUrl)
  echo "==> second pass: the sign-in callbacks and checkout return links name $APP_URL"
  deploy "Stage=$stage" "AppUrl='$APP_URL'"
fi

# CloudFront checks media links with the same secret, from its key value store.
kvs=$(out MediaLinkKeysArn)
etag=$(aws cloudfront-keyvaluestore describe-key-value-store --kvs-arn "$kvs" --query ETag --output text)
aws cloudfront-keyvaluestore put-key --kvs-arn "$kvs" --if-match "$etag" --key media-signing-key \
  --value "$(aws ssm get-parameter --name "/tef/$stage/media-signing-key" --with-decryption --query Parameter.Value --output text)" >/dev/null

aws cloudformation describe-stacks --stack-name "$stack" --query "Stacks[0].Outputs" --output table
if [ -n "${APP_DOMAIN:-}" ]; then echo "DNS: point $APP_DOMAIN (alias or CNAME) at $(out DistributionDomainName)"; fi
echo "Deployed $stack. Next: make publish-content STAGE=$stage"
