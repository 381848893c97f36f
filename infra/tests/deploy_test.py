#!/usr/bin/env python3
"""infra/deploy.sh against stand-ins for the AWS and SAM CLIs (no account, no network).

The stand-ins keep the stack, its outputs, the SSM parameters and CloudFront's key value store in
one JSON file and record every call, so the tests check what an operator's run would do: what the
first run asks for (on a terminal) or refuses (without one), the two passes that name CloudFront's
address, which parameters a later run passes (only those exported: SAM keeps the others), and the
secrets, which go to SSM and never to the stack.

Run with the SAM CLI's Python, whose own parser reads the overrides:
  .tools/venv/bin/python infra/tests/deploy_test.py   (make lint-template runs it)
"""

import json
import os
import pty
import select
import subprocess
import sys
import tempfile
import termios
import textwrap
import time
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "infra" / "deploy.sh"

FAKE_AWS = r'''
import json, os, sys
state_path = os.environ["FAKE_STATE"]
state = json.load(open(state_path))
args = sys.argv[1:]
state["calls"].append(["aws"] + args)
def opt(name):
    return args[args.index(name) + 1] if name in args else None
def save():
    json.dump(state, open(state_path, "w"))
def fail(message, code=254):
    save(); print(message, file=sys.stderr); sys.exit(code)
service, command = args[0], args[1]
if service == "cloudformation" and command == "describe-stacks":
    if os.environ.get("FAKE_DESCRIBE_ERROR"):
        fail(os.environ["FAKE_DESCRIBE_ERROR"])
    if not state["stack"]:
        fail("An error occurred (ValidationError): Stack with id %s does not exist" % opt("--stack-name"))
    query = opt("--query") or ""
    if "OutputKey==" in query:
        key = query.split("OutputKey=='")[1].split("'")[0]
        print(state["stack"]["outputs"][key])
    elif "ParameterKey==" in query:
        key = query.split("ParameterKey=='")[1].split("'")[0]
        print(state["stack"]["parameters"].get(key, "None"))
    elif query == "Stacks[0].StackStatus":
        print(state["stack"].get("status", "CREATE_COMPLETE"))
    else:
        print(json.dumps(state["stack"]))
elif service == "ssm" and command == "get-parameter":
    name = opt("--name")
    if name not in state["ssm"]:
        fail("An error occurred (ParameterNotFound)", 254)
    query = opt("--query")
    p = state["ssm"][name]
    print(p["value"] if query == "Parameter.Value" else p["version"] if query == "Parameter.Version" else json.dumps(p))
elif service == "ssm" and command == "put-parameter":
    name = opt("--name")
    if name in state["ssm"] and "--overwrite" not in args:
        fail("An error occurred (ParameterAlreadyExists)", 254)
    version = state["ssm"][name]["version"] + 1 if name in state["ssm"] else 1
    state["ssm"][name] = {"type": opt("--type"), "value": opt("--value"), "version": version}
elif service == "cloudfront-keyvaluestore" and command == "describe-key-value-store":
    print(state["kvs_etag"])
elif service == "cloudfront-keyvaluestore" and command == "put-key":
    if opt("--if-match") != state["kvs_etag"]:
        fail("An error occurred (ConflictException)", 254)
    state["kvs"][opt("--key")] = opt("--value")
    state["kvs_etag"] = state["kvs_etag"] + "x"
else:
    fail("unexpected aws call: %s" % args, 99)
save()
'''

FAKE_SAM = r'''
import json, os, sys
state_path = os.environ["FAKE_STATE"]
state = json.load(open(state_path))
args = sys.argv[1:]
state["calls"].append(["sam"] + args)
state.setdefault("sam_regions", []).append(os.environ.get("AWS_DEFAULT_REGION"))
if args[0] == "deploy":
    # The overrides as the SAM CLI itself reads them (it refuses a bare `Key=`).
    from samcli.cli.types import CfnParameterOverridesType
    i = args.index("--parameter-overrides")
    values = tuple(a for a in args[i + 1:] if not a.startswith("--"))
    try:
        overrides = CfnParameterOverridesType().convert(values, None, None)
    except Exception as e:
        print("Error: Invalid value for '--parameter-overrides': %s" % e, file=sys.stderr)
        json.dump(state, open(state_path, "w")); sys.exit(2)
    # SAM passes every template parameter: the overridden ones with their value, the others with
    # UsePreviousValue (dropped on a creation, where the template's default applies).
    creating = not state["stack"] or state["stack"].get("status") == "REVIEW_IN_PROGRESS"
    params = {} if creating else dict(state["stack"]["parameters"])
    params.update(overrides)
    state["deploy_attempts"] = state.get("deploy_attempts", 0) + 1
    if str(state["deploy_attempts"]) == os.environ.get("FAKE_SAM_FAIL_ON", ""):
        print("Error: Failed to create/update the stack (interrupted)", file=sys.stderr)
        json.dump(state, open(state_path, "w")); sys.exit(1)
    for required in ("AuthDomainPrefix", "AppUrl"):
        if required not in params:
            print("Parameters: [%s] must have values" % required, file=sys.stderr)
            json.dump(state, open(state_path, "w")); sys.exit(1)
    domain = params.get("AppDomain", "")
    state["stack"] = {
        "parameters": params,
        "outputs": {
            "AppUrl": "https://" + (domain or "d111abcdef8.cloudfront.net"),
            "DistributionDomainName": "d111abcdef8.cloudfront.net",
            "MediaLinkKeysArn": "arn:aws:cloudfront::123456789012:key-value-store/kvs-1",
        },
    }
    state["deploys"].append(overrides)
elif args[0] != "build":
    print("unexpected sam call: %s" % args, file=sys.stderr); sys.exit(99)
json.dump(state, open(state_path, "w"))
'''

SECRETS = {
    "STRIPE_SECRET_KEY": "sk_test_123",
    "OPENAI_API_KEY": "sk-openai-456",
}


class Deploy(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="deploy-test-"))
        bin_dir = self.dir / "bin"
        bin_dir.mkdir()
        for name, code in (("aws", FAKE_AWS), ("sam", FAKE_SAM)):
            (bin_dir / f"{name}.py").write_text(code)
            tool = bin_dir / name
            tool.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{bin_dir / name}.py" "$@"\n')
            tool.chmod(0o755)
        rustup = bin_dir / "rustup"
        rustup.write_text("#!/bin/sh\nexit 0\n")
        rustup.chmod(0o755)
        self.state_path = self.dir / "state.json"
        self.write_state({"stack": None, "ssm": {}, "kvs": {}, "kvs_etag": "E1", "calls": [], "deploys": []})
        self.env = {
            "PATH": f"{bin_dir}:{os.environ['PATH']}",
            "HOME": str(self.dir),
            "FAKE_STATE": str(self.state_path),
            "STAGE": "test",
            "AWS_REGION": "ca-central-1",
        }

    def write_state(self, state):
        self.state_path.write_text(json.dumps(state))

    def state(self):
        return json.loads(self.state_path.read_text())

    def run_deploy(self, **env):
        return subprocess.run(
            ["bash", str(SCRIPT)],
            env={**self.env, **env},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )

    def first_run(self, **env):
        r = self.run_deploy(AUTH_DOMAIN_PREFIX="tef-auth", **SECRETS, **env)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r

    def test_without_a_terminal_the_first_run_names_what_it_needs_and_changes_nothing(self):
        r = self.run_deploy(**SECRETS)
        self.assertEqual(r.returncode, 1)
        self.assertIn("AUTH_DOMAIN_PREFIX", r.stderr)
        r = self.run_deploy(AUTH_DOMAIN_PREFIX="tef-auth", STRIPE_SECRET_KEY="sk_test_123")
        self.assertEqual(r.returncode, 1)
        self.assertIn("export OPENAI_API_KEY", r.stderr)
        r = self.run_deploy(AUTH_DOMAIN_PREFIX="tef-auth", APP_DOMAIN="app.example.ca", **SECRETS)
        self.assertEqual(r.returncode, 1)
        self.assertIn("APP_CERTIFICATE_ARN", r.stderr)
        s = self.state()
        self.assertEqual(s["deploys"], [])
        self.assertFalse(any(c[0] == "sam" for c in s["calls"]), s["calls"])
        # Not even the secrets it was given: all are settled before any is written.
        self.assertEqual(s["ssm"], {})

    def test_a_stack_it_cannot_read_or_that_failed_to_create_stops_the_run(self):
        r = self.run_deploy(FAKE_DESCRIBE_ERROR="An error occurred (ExpiredToken) when calling DescribeStacks", **SECRETS)
        self.assertEqual(r.returncode, 1)
        self.assertIn("cannot read stack tef-test", r.stderr)
        state = self.state()
        state["stack"] = {"status": "ROLLBACK_COMPLETE", "parameters": {}, "outputs": {}}
        self.write_state(state)
        r = self.run_deploy(AUTH_DOMAIN_PREFIX="tef-auth", **SECRETS)
        self.assertEqual(r.returncode, 1)
        self.assertIn("delete-stack --stack-name tef-test", r.stderr)
        s = self.state()
        self.assertEqual((s["deploys"], s["ssm"]), ([], {}))
        # A creation refused before it started (REVIEW_IN_PROGRESS) is still a first deployment.
        s["stack"]["status"] = "REVIEW_IN_PROGRESS"
        self.write_state(s)
        self.first_run()
        s = self.state()
        self.assertEqual(len(s["deploys"]), 2)
        self.assertEqual(s["stack"]["parameters"]["AppUrl"], "https://d111abcdef8.cloudfront.net")

    def test_an_interrupted_second_pass_is_completed_by_the_next_run(self):
        r = self.run_deploy(AUTH_DOMAIN_PREFIX="tef-auth", FAKE_SAM_FAIL_ON="2", **SECRETS)
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(self.state()["stack"]["parameters"]["AppUrl"], "https://example.invalid")
        r = self.run_deploy()
        self.assertEqual(r.returncode, 0, r.stderr)
        s = self.state()
        self.assertEqual(s["stack"]["parameters"]["AppUrl"], "https://d111abcdef8.cloudfront.net")
        self.assertEqual(s["deploys"][-1], {"Stage": "test", "AppUrl": "https://d111abcdef8.cloudfront.net"})
        # Once it holds, a run makes no second pass.
        before = len(s["deploys"])
        self.assertEqual(self.run_deploy().returncode, 0)
        self.assertEqual(len(self.state()["deploys"]), before + 1)

    def test_secrets_exported_again_unchanged_are_not_written_again(self):
        self.first_run()
        before = self.state()
        r = self.run_deploy(**SECRETS)
        self.assertEqual(r.returncode, 0, r.stderr)
        s = self.state()
        self.assertEqual(s["ssm"], before["ssm"], "same values: no new SSM version")
        self.assertEqual(s["deploys"][-1], {"Stage": "test", "SecretsVersion": "1.1.1.1"})
        self.assertFalse([c for c in s["calls"][len(before["calls"]):] if c[:2] == ["ssm", "put-parameter"]])

    def test_the_region_the_aws_cli_uses_is_the_one_sam_deploys_to(self):
        self.first_run(AWS_DEFAULT_REGION="us-east-1")
        self.assertEqual(set(self.state()["sam_regions"]), {"ca-central-1"})

    def test_the_first_run_deploys_twice_to_name_cloudfronts_address(self):
        self.first_run()
        s = self.state()
        first, second = s["deploys"]
        self.assertEqual(first["AppUrl"], "https://example.invalid")
        self.assertEqual(first["AuthDomainPrefix"], "tef-auth")
        self.assertEqual(second, {"Stage": "test", "AppUrl": "https://d111abcdef8.cloudfront.net"})
        self.assertEqual(s["stack"]["parameters"]["AppUrl"], "https://d111abcdef8.cloudfront.net")
        # The SAM CLI reads only AWS_DEFAULT_REGION; the operator named AWS_REGION.
        self.assertEqual(set(s["sam_regions"]), {"ca-central-1"})
        # Secrets are SecureString parameters, never stack parameters.
        self.assertEqual(s["ssm"]["/tef/test/stripe-secret-key"], {"type": "SecureString", "value": "sk_test_123", "version": 1})
        self.assertEqual(first["SecretsVersion"], "1.1.1.1")
        self.assertEqual(s["ssm"]["/tef/test/openai-api-key"]["value"], "sk-openai-456")
        self.assertEqual(s["ssm"]["/tef/test/stripe-webhook-secret"]["value"], "whsec_not_set_yet")
        media_key = s["ssm"]["/tef/test/media-signing-key"]["value"]
        self.assertRegex(media_key, r"^[0-9a-f]{64}$")
        self.assertEqual(s["kvs"], {"media-signing-key": media_key})
        for deploy in s["deploys"]:
            for value in list(SECRETS.values()) + [media_key]:
                self.assertNotIn(value, json.dumps(deploy))

    def test_a_later_run_changes_only_what_is_exported(self):
        self.first_run(GOOGLE_CLIENT_ID="google-id", GOOGLE_CLIENT_SECRET="google-secret",
                       STRIPE_PRICE_MONTHLY="price_m", STRIPE_PRICE_QUARTERLY="price_q")
        before = self.state()
        media_key = before["ssm"]["/tef/test/media-signing-key"]["value"]
        r = self.run_deploy()
        self.assertEqual(r.returncode, 0, r.stderr)
        s = self.state()
        self.assertEqual(s["deploys"][-1], {"Stage": "test", "SecretsVersion": "1.1.1.1"})
        self.assertEqual(s["stack"]["parameters"], before["stack"]["parameters"])
        self.assertEqual(s["ssm"], before["ssm"], "no secret is rewritten or replaced")
        self.assertEqual(s["kvs"], {"media-signing-key": media_key})
        # The webhook's real secret, once exported, replaces the placeholder and only it; its new
        # version changes every function's configuration, so no warm instance keeps the old one.
        r = self.run_deploy(STRIPE_WEBHOOK_SECRET="whsec_real")
        self.assertEqual(r.returncode, 0, r.stderr)
        s = self.state()
        self.assertEqual(s["ssm"]["/tef/test/stripe-webhook-secret"]["value"], "whsec_real")
        self.assertEqual(s["deploys"][-1], {"Stage": "test", "SecretsVersion": "1.2.1.1"})
        # Exported empty, a setting is cleared on purpose (Google sign-in switched off).
        r = self.run_deploy(GOOGLE_CLIENT_ID="")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.state()["deploys"][-1], {"Stage": "test", "GoogleClientId": "", "SecretsVersion": "1.2.1.1"})

    def test_a_first_run_with_its_own_domain_deploys_once_and_says_where_dns_points(self):
        cert = "arn:aws:acm:us-east-1:123456789012:certificate/0f0e-1"
        r = self.first_run(APP_DOMAIN="app.example.ca", APP_CERTIFICATE_ARN=cert)
        s = self.state()
        self.assertEqual(len(s["deploys"]), 1)
        d = s["deploys"][0]
        self.assertEqual(d["AppUrl"], "https://app.example.ca")
        self.assertEqual((d["AppDomain"], d["AppCertificateArn"]), ("app.example.ca", cert))
        self.assertIn("DNS: point app.example.ca (alias or CNAME) at d111abcdef8.cloudfront.net", r.stdout)

    def test_on_a_terminal_the_first_run_is_guided(self):
        """The operator types the sign-in prefix, no domain, and the three keys (not echoed)."""
        controller, terminal = pty.openpty()
        proc = subprocess.Popen(
            ["bash", str(SCRIPT)], env=self.env, stdin=terminal,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        answers = [
            ("Prefix of the Cognito sign-in domain", "tef-guided"),
            ("Your own domain for the site", ""),
            ("Stripe secret key", "sk_test_typed"),
            ("OpenAI API key", "sk-typed"),
        ]
        seen = b""
        deadline = time.monotonic() + 60
        # bash writes `read -p` prompts to the terminal's stderr, here a pipe: wait for each.
        for prompt, answer in answers:
            while prompt.encode() not in seen:
                self.assertLess(time.monotonic(), deadline, f"no prompt {prompt!r}; got {seen!r}")
                ready, _, _ = select.select([proc.stderr], [], [], 1)
                if ready:
                    chunk = os.read(proc.stderr.fileno(), 4096)
                    self.assertTrue(chunk, f"deploy.sh ended before asking {prompt!r}: {seen!r}")
                    seen += chunk
            seen = seen.split(prompt.encode(), 1)[1]
            if "key" in prompt:
                # A key is typed once the script has switched the terminal's echo off.
                while termios.tcgetattr(terminal)[3] & termios.ECHO:
                    self.assertLess(time.monotonic(), deadline, "echo never switched off")
                    time.sleep(0.01)
            os.write(controller, answer.encode() + b"\n")
        out, err = proc.communicate(timeout=60)
        os.close(terminal)
        echoed = b""
        while select.select([controller], [], [], 0.2)[0]:
            try:
                chunk = os.read(controller, 4096)
            except OSError:
                break
            if not chunk:
                break
            echoed += chunk
        os.close(controller)
        # What the operator saw on the terminal: the prefix typed, never a key.
        self.assertIn(b"tef-guided", echoed)
        self.assertNotIn(b"sk_test_typed", echoed)
        self.assertNotIn(b"sk-typed", echoed)
        self.assertEqual(proc.returncode, 0, err.decode())
        s = self.state()
        self.assertEqual(s["deploys"][0]["AuthDomainPrefix"], "tef-guided")
        self.assertEqual(s["deploys"][1]["AppUrl"], "https://d111abcdef8.cloudfront.net")
        self.assertEqual(s["ssm"]["/tef/test/stripe-secret-key"]["value"], "sk_test_typed")
        self.assertEqual(s["ssm"]["/tef/test/openai-api-key"]["value"], "sk-typed")
        self.assertNotIn(b"sk_test_typed", out + err, "a typed key is never printed")


if __name__ == "__main__":
    unittest.main(verbosity=1)
