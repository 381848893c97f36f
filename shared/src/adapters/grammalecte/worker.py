# Grammalecte worker for GrammalecteCorrector (shared/src/adapters/grammalecte/mod.rs).
# One long-lived process: JSON lines in on stdin, JSON lines out on stdout.
#   request:  {"id": 1, "text": "..."}
#   response: {"id": 1, "grammar": [...], "spelling": [...]}   (offsets in code points of "text")
#          or {"id": 1, "error": "..."}
# First line written once the engine is loaded and warmed up: {"ready": true, "version": "..."}.
# Diagnostics go to stderr, which the adapter logs.
import json
import sys

# Typography-only options: a learner typing c'est with a straight apostrophe, "..." or a
# plain space before "?" has made no error. Everything else (grammar, conjugation,
# agreement, confusions, hyphens, elisions, spelling) stays on.
OFF = ["typo", "apos", "eepi", "esp", "tab", "nbsp", "unit", "num", "liga", "chim",
       "latex", "md", "html", "ocr", "mapos", "idrule", "virg", "poncfin", "minis"]


def out(obj):
    sys.stdout.buffer.write(json.dumps(obj, ensure_ascii=True).encode("ascii") + b"\n")
    sys.stdout.buffer.flush()


def check(gc, text):
    grammar, spelling = [], []
    base = 0
    for para in text.split("\n"):
        if para.strip():
            g, s = gc.getParagraphErrors(para, dOptions=None, bContext=False, bSpellSugg=True)
            for e in g:
                grammar.append({
                    "start": base + e["nStart"], "end": base + e["nEnd"],
                    "rule": e.get("sRuleId", ""), "type": e.get("sType", ""),
                    "message": e.get("sMessage", ""), "suggestions": e.get("aSuggestions", []),
                })
            for e in s:
                spelling.append({
                    "start": base + e["nStart"], "end": base + e["nEnd"],
                    "word": e.get("sValue", ""), "suggestions": e.get("aSuggestions", []),
                })
        base += len(para) + 1
    return grammar, spelling


def main():
    try:
        import grammalecte
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
            grammar, spelling = check(gc, req.get("text", ""))
            out({"id": rid, "grammar": grammar, "spelling": spelling})
        except Exception as exc:
            print("request %s failed: %s: %s" % (rid, type(exc).__name__, exc), file=sys.stderr, flush=True)
            out({"id": rid, "error": "%s: %s" % (type(exc).__name__, exc)})


if __name__ == "__main__":
    sys.exit(main())
