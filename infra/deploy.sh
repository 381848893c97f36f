#!/usr/bin/env bash
# Deploys the stack, publishes the exam media, then the frontend with its runtime config. Needs AWS
# credentials, the SAM CLI, cargo-lambda and zig (pip install aws-sam-cli cargo-lambda ziglang).
#   infra/deploy.sh <stage> <auth-domain-prefix> <app-url> [google-client-id google-client-secret]
# Stripe settings come from the environment (docs/DEPLOY.md, README): STRIPE_SECRET_KEY,
# STRIPE_WEBHOOK_SECRET (of the endpoint <app-url>/api/stripe/webhook), STRIPE_PRICE_MONTHLY,
# STRIPE_PRICE_QUARTERLY. Writing corrections: OPENAI_API_KEY (and optionally OPENAI_BASE_URL,
# TEF_CORRECTION_MODEL for another OpenAI-compatible server or model).
set -euo pipefail
cd "$(dirname "$0")/.."
stage=${1:?stage}; prefix=${2:?auth domain prefix}; app_url=${3:?app url}
google_id=${4:-}; google_secret=${5:-}
stack="tef-$stage"

rustup target add aarch64-unknown-linux-gnu
sam build --template template.yaml
sam deploy --stack-name "$stack" --resolve-s3 --capabilities CAPABILITY_IAM --no-fail-on-empty-changeset \
  --parameter-overrides "Stage=$stage" "AuthDomainPrefix=$prefix" "AppUrl=$app_url" \
    "GoogleClientId=$google_id" "GoogleClientSecret=$google_secret" \
    "StripeSecretKey=${STRIPE_SECRET_KEY:?STRIPE_SECRET_KEY}" \
    "StripeWebhookSecret=${STRIPE_WEBHOOK_SECRET:?STRIPE_WEBHOOK_SECRET}" \
    "StripePriceMonthly=${STRIPE_PRICE_MONTHLY:-}" "StripePriceQuarterly=${STRIPE_PRICE_QUARTERLY:-}" \
    "OpenAiApiKey=${OPENAI_API_KEY:?OPENAI_API_KEY}" \
    "OpenAiBaseUrl=${OPENAI_BASE_URL:-https://api.openai.com/v1}" "CorrectionModel=${TEF_CORRECTION_MODEL:-gpt-4o-mini}"

out() { aws cloudformation describe-stacks --stack-name "$stack" --query "Stacks[0].Outputs[?OutputKey=='$1'].OutputValue" --output text; }
bucket=$(out AppBucketName)

# Exam media: the content's images and the listening audio, rendered by the neural voice.
TEF_MEDIA=s3 TEF_MEDIA_BUCKET="$(out MediaBucketName)" TEF_SPEECH=openai \
  cargo run --release -p local -- publish   # needs OPENAI_API_KEY

(cd frontend && npm install --no-audit --no-fund && npm run build)
cat > frontend/dist/config.json <<JSON
{
  "auth": { "authority": "$(out AuthAuthority)", "clientId": "$(out AuthClientId)", "scope": "openid email profile" },
  "supportEmail": "${TEF_SUPPORT_EMAIL:-support@example.com}",
  "social": {
    "facebook": "${TEF_SOCIAL_FACEBOOK:-https://www.facebook.com/example}",
    "instagram": "${TEF_SOCIAL_INSTAGRAM:-https://www.instagram.com/example}",
    "youtube": "${TEF_SOCIAL_YOUTUBE:-https://www.youtube.com/@example}",
    "tiktok": "${TEF_SOCIAL_TIKTOK:-https://www.tiktok.com/@example}"
  }
}
JSON
aws s3 sync frontend/dist/assets "s3://$bucket/assets" --cache-control "public, max-age=31536000, immutable"
aws s3 sync frontend/dist "s3://$bucket" --exclude "assets/*" --cache-control "no-cache" --delete
echo "Deployed: $(out AppUrl)"
