"""Chooses the 200 ToolSandbox scenarios apb runs for Table 3 (the paper does not name its 200):
every offline base scenario (91), plus 109 of the 637 other offline variants drawn with
random.Random(42).sample in file order, so every base and every variant kind is represented and
nothing needs the RapidAPI service. Writes data/toolsandbox/subset-200.txt, one name a line.

    python3 scripts/toolsandbox/make_subset.py data/toolsandbox/scenarios.json data/toolsandbox/subset-200.txt
"""
import json
import random
import sys

scenarios = json.load(open(sys.argv[1]))["scenarios"]
offline = [s for s in scenarios if not s["requires_network"]]
bases = [s["name"] for s in offline if s["name"] == s["base"]]
others = [s["name"] for s in offline if s["name"] != s["base"]]
chosen = set(bases) | set(random.Random(42).sample(others, 200 - len(bases)))
names = [s["name"] for s in scenarios if s["name"] in chosen]
with open(sys.argv[2], "w") as f:
    f.write("".join(n + "\n" for n in names))
print(f"{len(bases)} offline bases + {len(names) - len(bases)} sampled variants = {len(names)} -> {sys.argv[2]}")
