#!/usr/bin/env bash
# Publishes what the stack serves (`make publish-content STAGE=…`): the exam media (images, and
# the listening audio rendered by the neural voice; only what changed is rendered and uploaded),
# then the built app with its runtime config.json. Needs the deployed stack, AWS credentials and
# OPENAI_API_KEY (the voice). Source maps are not uploaded.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=${STAGE:?STAGE, e.g. prod}
stack="tef-$stage"
. infra/region.sh
out() { aws cloudformation describe-stacks --stack-name "$stack" --query "Stacks[0].Outputs[?OutputKey=='$1'].OutputValue" --output text; }
bucket=$(out AppBucketName)

TEF_MEDIA=s3 TEF_MEDIA_BUCKET="$(out MediaBucketName)" TEF_SPEECH=openai \
  cargo run --release -p local -- publish   # needs OPENAI_API_KEY

(cd frontend && npm ci --no-audit --no-fund && npm run build)
cat > frontend/dist/config.json <<JSON
{
  "auth": {
    "authority": "$(out AuthAuthority)", "clientId": "$(out AuthClientId)", "scope": "openid email profile",
    "logoutUrl": "$(out AuthHostedUi)/logout?client_id=$(out AuthClientId)&logout_uri=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1] + "/", safe=""))' "$(out AppUrl)")"
  },
  "supportEmail": "${TEF_SUPPORT_EMAIL:-support@example.com}",
  "social": {
    "facebook": "${TEF_SOCIAL_FACEBOOK:-https://www.facebook.com/example}",
    "instagram": "${TEF_SOCIAL_INSTAGRAM:-https://www.instagram.com/example}",
    "youtube": "${TEF_SOCIAL_YOUTUBE:-https://www.youtube.com/@example}",
    "tiktok": "${TEF_SOCIAL_TIKTOK:-https://www.tiktok.com/@example}"
  }
}
JSON
# Hashed assets never change: cached for a year. Everything else is revalidated on each visit.
aws s3 sync frontend/dist/assets "s3://$bucket/assets" --exclude "*.map" \
  --cache-control "public, max-age=31536000, immutable"
aws s3 sync frontend/dist "s3://$bucket" --exclude "assets/*" --exclude "*.map" \
  --cache-control "no-cache" --delete
echo "Published: $(out AppUrl)"
