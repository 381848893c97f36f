# Grammalecte worker for GrammalecteCorrector (shared/src/adapters/grammalecte/mod.rs).
# One long-lived process: JSON lines in on stdin, JSON lines out on stdout.
#   request:  {"id": 1, "text": "..."}
#   response: {"id": 1, "grammar": [...], "spelling": [...], "lexicon": {...}}
#             (offsets in code points of "text"; lexicon: see lexicon() below)
#          or {"id": 1, "error": "..."}
# First line written once the engine is loaded and warmed up: {"ready": true, "version": "..."}.
# Diagnostics go to stderr, which the adapter logs.
import json
import re
import sys

# Typography-only options: a learner typing c'est with a straight apostrophe, "..." or a
# plain space before "?" has made no error. Everything else (grammar, conjugation,
# agreement, confusions, hyphens, elisions, spelling) stays on.
OFF = ["typo", "apos", "eepi", "esp", "tab", "nbsp", "unit", "num", "liga", "chim",
       "latex", "md", "html", "ocr", "mapos", "idrule", "virg", "poncfin", "minis"]


def out(obj):
    sys.stdout.buffer.write(json.dumps(obj, ensure_ascii=True).encode("ascii") + b"\n")
    sys.stdout.buffer.flush()


conj = None  # grammalecte.fr.conj, imported in main()
ALPHABET = "abcdefghijklmnopqrstuvwxyzàâçéèêëîïôûùüœ-"
ACCENTS = {"a": "aàâ", "e": "eéèê", "i": "iîï", "o": "oô", "u": "uùû", "c": "cç"}
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
TENSES = (":Ip", ":Iq", ":If", ":K")
MAX_CLOSE = 40
MAX_SLOW = 3


def worth_suggesting(para, start, word):
    """Not a name: a capital only at the start of a sentence (the adapter skips the rest)."""
    if not word[:1].isupper():
        return True
    before = para[:start].rstrip()
    return not before or before[-1] in ".!?…:«\"-—–"


def close_words(sp, word):
    """Dictionary words one edit away, or differing only by accents (Grammalecte's own
    suggestions miss some: fesait gives fessait; bays never gives pays)."""
    w = word.lower()
    found, seen = [], set()

    def add(c):
        if c != w and c not in seen:
            seen.add(c)
            if sp.isValid(c):
                found.append(c)

    for i in range(len(w) + 1):
        for ch in ALPHABET:
            add(w[:i] + ch + w[i:])
        if i < len(w):
            add(w[:i] + w[i + 1:])
            for ch in ALPHABET:
                add(w[:i] + ch + w[i + 1:])
            if i + 1 < len(w):
                add(w[:i] + w[i + 1] + w[i] + w[i + 2:])
    variants = [""]
    for ch in w:
        variants = [v + a for v in variants for a in ACCENTS.get(ch, ch)]
        if len(variants) > 512:
            break
    else:
        for v in variants:
            add(v)
    return found[:40]


def lexicon(sp, text):
    """For each word: its morphologies, its 3rd person plural (a 3rd person singular
    verb, same tense) and its plural (a singular noun), for the learner rules."""
    out = {}
    for m in WORD.finditer(text):
        w = m.group(0).lower()
        if w in out or len(w) > 30:
            continue
        morph = list(sp.getMorph(w) or [])
        if m.group(0) != w:  # « Toronto »: the proper noun's own entry (cities #C, countries #P)
            morph += [x for x in sp.getMorph(m.group(0)) or [] if x not in morph]
        entry = {"morph": morph}
        for mo in morph:
            lemma, _, tags = mo.lstrip(">").partition("/")
            if ":V" in tags and ":3s" in tags and "v3p" not in entry:
                for tense in TENSES:
                    if tense in tags:
                        try:
                            form = conj.getConj(lemma, tense, ":3p")
                        except Exception:
                            form = None
                        if form:
                            entry["v3p"] = form
                        break
            if ":Y" in tags and "present" not in entry:  # an infinitive: its present tense
                try:
                    entry["present"] = {p: conj.getConj(lemma, ":Ip", ":" + p) for p in ("1s", "2s", "3s", "3p")}
                except Exception:
                    pass
            if ":N" in tags and ":s" in tags and "pl" not in entry:
                for cand in (w + "s", w[:-2] + "aux" if w.endswith("al") else "", w + "x" if w.endswith(("eau", "eu", "au")) else ""):
                    if cand and sp.isValid(cand) and any(":p" in x or ":i" in x for x in sp.getMorph(cand) or []):
                        entry["pl"] = cand
                        break
        out[w] = entry
    return out


def check(gc, text):
    sp = gc.getSpellChecker()
    grammar, spelling = [], []
    slow_budget = [MAX_SLOW]
    base = 0
    for para in text.split("\n"):
        if para.strip():
            # Grammalecte's own suggestions cost 15 to 140 ms a word (names are the slowest):
            # they are asked only when no close word exists (see suggestions() below).
            g, s = gc.getParagraphErrors(para, dOptions=None, bContext=False, bSpellSugg=False)
            for e in g:
                grammar.append({
                    "start": base + e["nStart"], "end": base + e["nEnd"],
                    "rule": e.get("sRuleId", ""), "type": e.get("sType", ""),
                    "message": e.get("sMessage", ""), "suggestions": e.get("aSuggestions", []),
                })
            for e in s:
                word = e.get("sValue", "")
                # about 6 ms a word: bounded, so a text in another language stays fast
                close = close_words(sp, word) if len(spelling) < MAX_CLOSE else []
                slow = []
                if not close and slow_budget[0] > 0 and worth_suggesting(para, e["nStart"], word):
                    slow_budget[0] -= 1
                    slow = [w for group in sp.suggest(word) for w in group][:10]
                spelling.append({
                    "start": base + e["nStart"], "end": base + e["nEnd"],
                    "word": word, "suggestions": slow, "close": close,
                })
        base += len(para) + 1
    return grammar, spelling, lexicon(sp, text)


def main():
    try:
        global conj
        import grammalecte
        from grammalecte.fr import conj
        gc = grammalecte.GrammarChecker("fr")
        options = gc.gce.getOptions()
        for name in OFF:
            if name in options:
                gc.gce.setOption(name, False)
        check(gc, "Je suis allé au marché hier et j'ai acheter des pomme. Il fesait beau.")
        version = getattr(gc.gce, "version", "")
    except Exception as exc:  # the adapter reports this line as Unavailable
        out({"ready": False, "error": "%s: %s" % (type(exc).__name__, exc)})
        return 1
    out({"ready": True, "version": str(version)})
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return 0
        rid = None
        try:
            req = json.loads(line.decode("utf-8"))
            rid = req.get("id")
            grammar, spelling, lex = check(gc, req.get("text", ""))
            out({"id": rid, "grammar": grammar, "spelling": spelling, "lexicon": lex})
        except Exception as exc:
            print("request %s failed: %s: %s" % (rid, type(exc).__name__, exc), file=sys.stderr, flush=True)
            out({"id": rid, "error": "%s: %s" % (type(exc).__name__, exc)})


if __name__ == "__main__":
    sys.exit(main())
