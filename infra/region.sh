# Sourced by infra/deploy.sh and infra/publish-content.sh. The AWS CLI and the Rust SDK read
# AWS_REGION first, the SAM CLI only AWS_DEFAULT_REGION: both name one region, AWS_REGION's if set.
if [ -n "${AWS_REGION:-}" ]; then export AWS_DEFAULT_REGION=$AWS_REGION
elif [ -n "${AWS_DEFAULT_REGION:-}" ]; then export AWS_REGION=$AWS_DEFAULT_REGION; fi
