"""An independent Python re-implementation of the official APB runner's `score` step.

Written from the audit's description (shared/spec/official-harness-audit.md, sections 3.1 and 5
item 8), not from our TypeScript, so that test/metrics/official-groups.test.ts can check that
src/metrics/official-groups.ts computes the same groups.

    python3 official_scorer.py JUDGEMENTS.jsonl [--splits a,b,...]

Prints {"total_records", "groups": {NAME: {"records", "accuracy", "average_grade"}}} as JSON.

Readings of the points the audit leaves open (the same ones docs/metrics.md states):
- one pass over the lines; no filtering by tested or judge model; no de-duplication;
- a line yields the names "overall", split, planning_regime, task_family, task_category, each
  used only when it is a non-empty string; all names share one namespace, and a line counts once
  per name it yields (a task_category equal to the line's own split counts twice there);
- a judgement that is not a JSON object is treated as {};
- accuracy = mean of bool(judgement["is_correct"]) over lines whose judgement has the key;
- average_grade = mean of judgement["grade"] over lines where it is an int or float (Python's
  isinstance, so booleans count as 1 and 0);
- an empty denominator gives None (JSON null), not a ZeroDivisionError and not 0.0.
"""

import json
import sys

GROUP_FIELDS = ("split", "planning_regime", "task_family", "task_category")


def score(path, splits=None):
    groups = {}
    total = 0
    with open(path, encoding="utf-8") as handle:
        for raw in handle:
            raw = raw.strip()
            if not raw:
                continue
            record = json.loads(raw)
            if splits is not None and record.get("split") not in splits:
                continue
            total += 1
            judgement = record.get("judgement")
            if not isinstance(judgement, dict):
                judgement = {}
            names = ["overall"] + [record.get(field) for field in GROUP_FIELDS]
            for name in names:
                if not isinstance(name, str) or not name:
                    continue
                group = groups.setdefault(name, {"records": 0, "flags": [], "grades": []})
                group["records"] += 1
                if "is_correct" in judgement:
                    group["flags"].append(bool(judgement["is_correct"]))
                grade = judgement.get("grade")
                if isinstance(grade, (int, float)):
                    group["grades"].append(grade)
    out = {"total_records": total, "groups": {}}
    for name, group in groups.items():
        flags, grades = group["flags"], group["grades"]
        out["groups"][name] = {
            "records": group["records"],
            "accuracy": sum(flags) / len(flags) if flags else None,
            "average_grade": sum(grades) / len(grades) if grades else None,
        }
    return out


def main(argv):
    path = argv[1]
    splits = None
    if len(argv) > 3 and argv[2] == "--splits":
        splits = set(argv[3].split(","))
    json.dump(score(path, splits), sys.stdout)


if __name__ == "__main__":
    main(sys.argv)
