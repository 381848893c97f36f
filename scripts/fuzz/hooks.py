"""Schemathesis hooks for `scripts/fuzz-api.sh`: a refused request changes nothing.

Before each call the learner's state is read (profile, credits, subscription, progress);
after a 4xx answer it is read again and must be the same. The run uses one worker, so no
other request can change the state in between.
"""

import json
import os
import urllib.request

import schemathesis

BASE = os.environ["TEF_FUZZ_URL"].rstrip("/")
TOKEN = os.environ["TEF_FUZZ_TOKEN"]
STATE_PATHS = ("/api/me", "/api/progress")

_before = {}


def learner_state():
    state = {}
    for path in STATE_PATHS:
        request = urllib.request.Request(
            BASE + path, headers={"Authorization": "Bearer " + TOKEN}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            state[path] = json.load(answer)
    return state


@schemathesis.hook
def before_call(context, case, kwargs):
    _before["state"] = learner_state()


@schemathesis.check
def refused_requests_change_nothing(ctx, response, case):
    if not 400 <= response.status_code < 500:
        return None
    before = _before.get("state")
    if before is None:
        return None
    after = learner_state()
    if after != before:
        raise AssertionError(
            f"a refused request ({response.status_code}) changed the learner's state:\n"
            f"before: {json.dumps(before, sort_keys=True)}\n"
            f"after:  {json.dumps(after, sort_keys=True)}"
        )
    return None
