#!/usr/bin/env python3
"""Redraw the key positions of every paper in content/ (issue 14).

For each question the key's position is drawn independently and uniformly
(seeded, so a run on the same files gives the same result): the key option moves
to the drawn position and the distractors are shuffled into the others. When all
four options are quantities (amounts, times, dates, counts) they are sorted in
ascending order instead and the key goes wherever it falls. Image-matching items
(options "Image A" to "Image D") move the panels of their picture instead: the
SVG's four panels are permuted with their labels kept in place, and the alt
text's "A: … B: …" descriptions and the explanation's panel letters follow.

A paper is redrawn (next seed) until it passes the validator's key rules as
mirrored here: letter shares 15–35 %, the key the single longest and shortest
option in 7.5–37.5 % of questions, and no learnable order (key_patterns in
shared/src/domain/content.rs). The Rust validator stays the authority:
run `cargo test -p shared --test content` afterwards.

Explanations must not name options by letter or position ("option C", "the
first option"); the script refuses to run while one does (see BANNED below).
Audio scripts are never touched.

Usage: python3 scripts/redraw-keys.py [--seed N]   (rewrites content/ in place)
"""

import json
import random
import re
import sys
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "content"
LETTERS = "ABCD"
ALPHA = 0.002  # KEY_PATTERN_ALPHA
BANNED = re.compile(
    r"\b([Oo]ption|[Aa]nswer|[Cc]hoice)s? [A-D]\b|\([A-D]\)"
    r"|\b([Ff]irst|[Ss]econd|[Tt]hird|[Ff]ourth|[Ll]ast|[Mm]iddle) options?\b"
)
# Explanations whose "Option B" is the document's own (a pay-back letter's options).
DOCUMENT_OPTIONS = {("reading", 2, 28), ("reading", 2, 29)}
WEEKDAYS = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
MONTHS = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
          "septembre", "octobre", "novembre", "décembre"]


def number(w):
    w = w[:-2] if w.endswith("er") else w
    sign = 1
    if w[:1] in ("−", "-"):
        sign, w = -1, w[1:]
    if not w or not w[0].isdigit() or not all(c.isdigit() or c in ",." for c in w):
        return None
    if sum(c in ",." for c in w) > 1:
        return None
    return sign * float(w.replace(",", "."))


def quantity(words):
    if words and words[0].lower() in WEEKDAYS:
        words = words[1:]
    if not words:
        return None
    if len(words) == 2 and words[1] == "h":
        h = number(words[0])
        return None if h is None else h * 60
    if len(words) == 3 and words[1] == "h" and len(words[2]) == 2:
        h, m = number(words[0]), number(words[2])
        return None if h is None or m is None else h * 60 + m
    if len(words) in (2, 3) and words[1].lower() in MONTHS:
        d = number(words[0])
        y = number(words[2]) if len(words) == 3 else 0
        if d is None or y is None:
            return None
        return y * 10000 + MONTHS.index(words[1].lower()) * 100 + d
    groups = words[1:]
    if all(len(re.split("[,.]", g)[0]) == 3 and re.split("[,.]", g)[0].isdigit() for g in groups):
        return number(words[0] + "".join(groups))
    return None


def numeric_options(options):
    """Mirror of numeric_options in content.rs."""
    split = [[w for w in re.split(r"[\s\u00a0\u202f]+", o.strip().rstrip(".")) if w] for o in options]
    shortest = min(len(w) for w in split)

    def same(get):
        first = get(split[0])
        return not any(c.isdigit() for c in first) and all(get(w) == first for w in split)

    prefix = 0
    while prefix < shortest and same(lambda w: w[prefix]):
        prefix += 1
    suffix = 0
    while prefix + suffix < shortest and same(lambda w: w[len(w) - 1 - suffix]):
        suffix += 1
    values = [quantity(w[prefix:len(w) - suffix]) for w in split]
    return None if any(v is None for v in values) else values


def upper_tail(n, p, k):
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def lower_tail(n, p, k):
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(0, k + 1))


def key_stats(keys):
    blocks = [keys[i:i + 4] for i in range(0, len(keys) - len(keys) % 4, 4)]
    return {
        "permutation_blocks": sum(len(set(b)) == 4 for b in blocks),
        "blocks": len(blocks),
        "runs": 1 + sum(a != b for a, b in zip(keys, keys[1:])),
        "alternations": sum(a == c != b for a, b, c in zip(keys, keys[1:], keys[2:])),
    }


def key_patterns_ok(keys):
    s, n = key_stats(keys), len(keys)
    return (
        upper_tail(s["blocks"], 3 / 32, s["permutation_blocks"]) >= ALPHA
        and upper_tail(n - 1, 0.75, s["runs"] - 1) >= ALPHA
        and lower_tail(n - 1, 0.75, s["runs"] - 1) >= ALPHA
        and upper_tail(n - 2, 3 / 16, s["alternations"]) >= ALPHA
    )


def tells_ok(questions):
    n = len(questions)
    letters = [sum(q["answer"] == i for q in questions) for i in range(4)]
    longest = shortest = 0
    for q in questions:
        lengths = [len(o.strip()) for o in q["options"]]
        key = lengths[q["answer"]]
        others = [l for i, l in enumerate(lengths) if i != q["answer"]]
        longest += all(l < key for l in others)
        shortest += all(l > key for l in others)
    share = lambda c, lo, hi: lo <= c / n <= hi
    return (
        all(share(c, 0.15, 0.35) for c in letters)
        and share(longest, 0.075, 0.375)
        and share(shortest, 0.075, 0.375)
        and key_patterns_ok([q["answer"] for q in questions])
    )


def draw(question, rng):
    """The new option order, as a list of old indexes (new position -> old index)."""
    n = len(question["options"])
    values = numeric_options(question["options"])
    if values is not None:
        return sorted(range(n), key=lambda i: values[i])
    key = question["answer"]
    position = rng.randrange(n)
    distractors = [i for i in range(n) if i != key]
    rng.shuffle(distractors)
    distractors.insert(position, key)
    return distractors


def remap_letters(text, old_to_new):
    """Panel letters in an image-matching explanation ("Image C", "Images A and D", "(C)")."""

    def sub(m):
        start = m.start()
        before = text[max(0, start - 3):start]
        after = text[m.end():m.end() + 6]
        # The article "A" opening a sentence ("A helmet is…") is not a panel.
        if m.group(0) == "A" and (start == 0 or before.endswith(". ") or before.endswith('" ')) \
                and re.match(r" [a-z]", after) and not re.match(r" (and|or|is|shows|has)\b", after):
            return "A"
        return LETTERS[old_to_new[LETTERS.index(m.group(0))]]

    text = re.sub(r"(?<![\w'’-])[A-D](?![\w'’-])", sub, text)
    # "Images C and A" reads as "Images A and C".
    return re.sub(r"\b([A-D]) and ([A-D])\b", lambda m: " and ".join(sorted(m.groups())), text)


def permute_alt(alt, order):
    parts = re.split(r"(?<![\w'’-])([A-D]): ", alt)
    # parts: [prefix, "A", descA, "B", descB, "C", descC, "D", descD]
    assert [parts[i] for i in (1, 3, 5, 7)] == list(LETTERS), alt
    descs = [parts[i].strip() for i in (2, 4, 6, 8)]
    out = parts[0]
    for new, old in enumerate(order):
        out += f"{LETTERS[new]}: {descs[old]}" + (" " if new < 3 else "")
    return out


def permute_svg(svg, order):
    """Move panel order[j] to position j; the labels A–D stay at their positions."""
    opener = re.compile(r'<g transform="translate\((\d+) (\d+)\)">|<svg x="(\d+)" y="(\d+)" ')
    starts = []
    depth = 0
    for m in re.finditer(r"<(/?)(svg|g)\b[^>]*?(/?)>", svg):
        closing, selfclosing = m.group(1) == "/", m.group(3) == "/"
        if selfclosing:
            continue
        if not closing:
            if depth == 1 and opener.match(svg, m.start()):
                starts.append([m.start(), None])
            depth += 1
        else:
            depth -= 1
            if depth == 1 and starts and starts[-1][1] is None:
                starts[-1][1] = m.end()
    assert len(starts) == 4 and all(e for _, e in starts), "four panels expected"
    panels = [svg[s:e] for s, e in starts]
    positions = [opener.match(p).group(0) for p in panels]
    labels = []
    for i, p in enumerate(panels):
        found = re.findall(r">\s*([A-D])\s*</text>", p)
        assert found == [LETTERS[i]], (found, i)
    out = svg[:starts[0][0]]
    for new, old in enumerate(order):
        p = panels[old]
        p = positions[new] + p[len(positions[old]):]
        p = re.sub(r">(\s*)[A-D](\s*)</text>", rf">\g<1>{LETTERS[new]}\g<2></text>", p)
        out += p + svg[starts[new][1]:starts[new + 1][0]] if new < 3 else p
    return out + svg[starts[3][1]:]


def apply(question, order):
    old_to_new = {old: new for new, old in enumerate(order)}
    question["answer"] = old_to_new[question["answer"]]
    if question["part"] == "image-matching":
        question["image"]["alt"] = permute_alt(question["image"]["alt"], order)
        question["explanation"] = remap_letters(question["explanation"], old_to_new)
        path = ROOT / "media" / question["image"]["file"]
        path.write_text(permute_svg(path.read_text(), order))
    else:
        question["options"] = [question["options"][i] for i in order]


def main():
    base = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 14
    paths = sorted(ROOT.glob("*/test-*.json"))
    for path in paths:
        test = json.loads(path.read_text())
        for q in test["questions"]:
            known = (test["category"], test["id"], q["number"]) in DOCUMENT_OPTIONS
            if q["part"] != "image-matching" and not known and BANNED.search(q["explanation"]):
                sys.exit(f"{path} question {q['number']}: the explanation names an option by position")
    for path in paths:
        test = json.loads(path.read_text())
        for attempt in range(10_000):
            rng = random.Random(f"{base}-{test['category']}-{test['id']}-{attempt}")
            orders = [draw(q, rng) for q in test["questions"]]
            trial = [dict(q, answer=order.index(q["answer"]), options=[q["options"][i] for i in order])
                     for q, order in zip(test["questions"], orders)]
            if tells_ok(trial):
                break
        else:
            sys.exit(f"{path}: no passing draw")
        for q, order in zip(test["questions"], orders):
            apply(q, order)
        path.write_text(json.dumps(test, ensure_ascii=False, indent=2) + "\n")
        keys = "".join(LETTERS[q["answer"]] for q in test["questions"])
        print(f"{path.relative_to(ROOT)}: attempt {attempt}, keys {keys}, {key_stats([q['answer'] for q in test['questions']])}")


if __name__ == "__main__":
    main()
