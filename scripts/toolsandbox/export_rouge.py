"""Exports NLTK Porter stems and ROUGE-L F-measures (rouge_score's tokenizer rules, NLTK's stemmer)
for every distinct word and a set of text pairs from ToolSandbox's scenarios, as test fixtures
for the TypeScript port.

    /tmp/ts-venv/bin/python scripts/toolsandbox/export_rouge.py test/fixtures/toolsandbox/rouge.json
"""
import json
import re
import sys

import prelude  # noqa: F401
from nltk.stem import porter
from rouge_score import rouge_scorer

EXTRA = (
    "caresses flies dies mules denied died agreed owned humbled sized meeting stating siezing "
    "itemization sensational traditional reference colonizer plotted happy generously conditional "
    "rational valency hesitancy digitizer conformably radically differently vilely analogously "
    "vietnamization predication operator feudalism decisiveness hopefulness callousness formality "
    "sensitivity sensibility triplicate formative formalize electricity electrical hopeful goodness "
    "revival allowance inference airliner gyroscopic adjustable defensible irritant replacement "
    "adjustment dependent adoption homologou communism activate angulariti homologous effective "
    "bowdlerize probate rate cease controll roll skies sky dying lying tying news innings outings "
    "cannings howe proceed exceed succeed generalities fully logically analogies crying yyy ay by"
).split()


def main(out):
    data = json.load(open(prelude.os.path.join(prelude.HERE, "../../data/toolsandbox/scenarios.json")))
    texts = set()

    def walk(value):
        if isinstance(value, str):
            if 2 < len(value) < 400 and " " in value:
                texts.add(value)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    walk(data)
    words = sorted({w for t in texts for w in re.sub(r"[^a-z0-9]+", " ", t.lower()).split()} | set(EXTRA))
    stemmer = porter.PorterStemmer()
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    ordered = sorted(texts)
    pairs = [(ordered[i], ordered[(i * 7 + 3) % len(ordered)]) for i in range(0, len(ordered), 3)]
    json.dump(
        {
            "stems": {w: stemmer.stem(w) for w in words},
            "rouge_l": [[t, p, scorer.score(target=t, prediction=p)["rougeL"].fmeasure] for t, p in pairs],
        },
        open(out, "w"),
        ensure_ascii=False,
    )
    print(f"{len(words)} words, {len(pairs)} pairs -> {out}")


if __name__ == "__main__":
    main(sys.argv[1])
