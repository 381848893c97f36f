#!/usr/bin/env python3
"""Scores the blind reads of issue 14 (content/REVIEW.md): an independent reader saw only each
item's prompt and options (`<round>-<skill>-items.json`) and wrote a guess, a confidence and a
reason (`<round>-<skill>-guesses.tsv`). Each round is scored against the keys of the bank it
read (a git commit). Run from the repository: python3 bench/blind-read/score.py"""
import collections
import csv
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROUNDS = [("before", "8ad73a5"), ("round1", "815e526"), ("round2", "cfd76f6"), ("round3", "7a28b78"), ("round4", "c74fe7c"), ("round5", "30fc6ad"), ("round6", "b891327"), ("round7", "1475a31"), ("round8", "4278521"), ("round9", "de8286b"), ("round10", "3588cd4"), ("round11", "22917a0")]


def keys(commit):
    k = {}
    for cat in ["reading", "listening"]:
        for i in range(1, 11):
            path = f"content/{cat}/test-{i:02d}.json"
            t = json.loads(subprocess.check_output(["git", "show", f"{commit}:{path}"]))
            for q in t["questions"]:
                k[f"{cat[0].upper()}{t['id']}-Q{q['number']}"] = "ABCD"[q["answer"]]
    return k


for name, commit in ROUNDS:
    k = keys(commit)
    for cat in ["reading", "listening"]:
        if not os.path.exists(f"{HERE}/{name}-{cat}-guesses.tsv"):
            continue  # a round that read one skill only
        rows = list(csv.DictReader(open(f"{HERE}/{name}-{cat}-guesses.tsv"), delimiter="\t"))
        right = collections.Counter()
        seen = collections.Counter()
        for r in rows:
            conf = r["confidence"].strip().lower()
            seen[conf] += 1
            right[conf] += k.get(r["id"]) == r["guess"].strip().upper()
        n = len(rows)
        reason = right["high"] + right["medium"]
        print(
            f"{name:7} {cat:9} {n} items: right {100 * sum(right.values()) / n:.1f} % (chance 25 %); "
            f"for a stated reason (high or medium) {reason} ({100 * reason / n:.1f} %); "
            f"high {right['high']}/{seen['high']}, medium {right['medium']}/{seen['medium']}, low {right['low']}/{seen['low']}"
        )
