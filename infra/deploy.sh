#!/usr/bin/env bash
# Builds every function for arm64 with cargo-lambda and deploys the stack (`make deploy STAGE=…`).
# Needs AWS credentials, the SAM CLI, cargo-lambda and zig (pip install aws-sam-cli cargo-lambda ziglang).
# The walk-through is infra/README.md. Parameters come from the environment:
#   STAGE, AUTH_DOMAIN_PREFIX, APP_URL                       (required)
#   GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET                   (optional: Google sign-in)
#   STRIPE_PRICE_MONTHLY, STRIPE_PRICE_QUARTERLY, [OPENAI_BASE_URL, TEF_CORRECTION_MODEL]
# Secrets never go through the stack: STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and OPENAI_API_KEY,
# when set, are stored as SSM SecureString parameters /tef/$STAGE/… (the functions read them at
# cold start); when not set, the parameters must already exist.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=${STAGE:?STAGE, e.g. prod}
stack="tef-$stage"

# The secrets, as SecureString parameters (the functions that use one may read only it).
put_secret() { # <variable> <parameter>
  local value=${!1:-}
  if [ -n "$value" ]; then
    aws ssm put-parameter --name "/tef/$stage/$2" --type SecureString --value "$value" --overwrite >/dev/null
    echo "==> /tef/$stage/$2 set from $1"
  elif ! aws ssm get-parameter --name "/tef/$stage/$2" >/dev/null 2>&1; then
    echo "/tef/$stage/$2 does not exist: export $1 (infra/README.md, step 2)" >&2
    exit 1
  fi
}
put_secret STRIPE_SECRET_KEY stripe-secret-key
put_secret STRIPE_WEBHOOK_SECRET stripe-webhook-secret
put_secret OPENAI_API_KEY openai-api-key
# The media link secret is ours: made once, kept in SSM (for the functions that sign links).
if ! aws ssm get-parameter --name "/tef/$stage/media-signing-key" >/dev/null 2>&1; then
  aws ssm put-parameter --name "/tef/$stage/media-signing-key" --type SecureString \
    --value "$(openssl rand -hex 32)" >/dev/null
  echo "==> /tef/$stage/media-signing-key created"
fi

rustup target add aarch64-unknown-linux-gnu
sam build --template template.yaml
sam deploy --stack-name "$stack" --resolve-s3 --capabilities CAPABILITY_IAM --no-fail-on-empty-changeset \
  --parameter-overrides "Stage=$stage" \
    "AuthDomainPrefix=${AUTH_DOMAIN_PREFIX:?AUTH_DOMAIN_PREFIX}" "AppUrl=${APP_URL:?APP_URL}" \
    "GoogleClientId=${GOOGLE_CLIENT_ID:-}" "GoogleClientSecret=${GOOGLE_CLIENT_SECRET:-}" \
    "StripePriceMonthly=${STRIPE_PRICE_MONTHLY:-}" "StripePriceQuarterly=${STRIPE_PRICE_QUARTERLY:-}" \
    "OpenAiBaseUrl=${OPENAI_BASE_URL:-https://api.openai.com/v1}" "CorrectionModel=${TEF_CORRECTION_MODEL:-gpt-4o-mini}"

# CloudFront checks media links with the same secret, from its key value store.
out() { aws cloudformation describe-stacks --stack-name "$stack" --query "Stacks[0].Outputs[?OutputKey=='$1'].OutputValue" --output text; }
kvs=$(out MediaLinkKeysArn)
etag=$(aws cloudfront-keyvaluestore describe-key-value-store --kvs-arn "$kvs" --query ETag --output text)
aws cloudfront-keyvaluestore put-key --kvs-arn "$kvs" --if-match "$etag" --key media-signing-key \
  --value "$(aws ssm get-parameter --name "/tef/$stage/media-signing-key" --with-decryption --query Parameter.Value --output text)" >/dev/null

aws cloudformation describe-stacks --stack-name "$stack" --query "Stacks[0].Outputs" --output table
echo "Deployed $stack. Next: make publish-content STAGE=$stage"
