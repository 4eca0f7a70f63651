"""rouge_score.rouge_scorer stand-in: RougeScorer(["rougeL"], use_stemmer=True).score(target, prediction)."""
import collections
import re

from nltk.stem import porter

Score = collections.namedtuple("Score", ["precision", "recall", "fmeasure"])
_STEMMER = porter.PorterStemmer()


def tokenize(text, use_stemmer):
    text = re.sub(r"[^a-z0-9]+", " ", text.lower())
    tokens = re.split(r"\s+", text)
    if use_stemmer:
        tokens = [_STEMMER.stem(x) if len(x) > 3 else x for x in tokens]
    return [x for x in tokens if re.match(r"^[a-z0-9]+$", x)]


def _lcs(a, b):
    rows = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            rows[i][j] = rows[i - 1][j - 1] + 1 if a[i - 1] == b[j - 1] else max(rows[i - 1][j], rows[i][j - 1])
    return rows[-1][-1]


class RougeScorer:
    def __init__(self, rouge_types, use_stemmer=False):
        assert rouge_types == ["rougeL"]
        self.use_stemmer = use_stemmer

    def score(self, target, prediction):
        t = tokenize(target, self.use_stemmer)
        p = tokenize(prediction, self.use_stemmer)
        if not t or not p:
            return {"rougeL": Score(0.0, 0.0, 0.0)}
        lcs = _lcs(t, p)
        precision, recall = lcs / len(p), lcs / len(t)
        f = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        return {"rougeL": Score(precision, recall, f)}
