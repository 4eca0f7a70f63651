"""Converts ToolSandbox's 1,032 scenarios (129 base x 8 variants) into data/toolsandbox/scenarios.json,
once, by running ToolSandbox's own scenario code under the frozen clock with its seed
(random.seed(42), as its CLI does): starting databases, tool allow lists (shuffled and with the
distraction tools ranked by rapidfuzz WRatio exactly as ToolSandbox makes them), tool
augmentations, milestones and minefields with their DAGs and similarity measures.

    /tmp/ts-venv/bin/python scripts/toolsandbox/export_scenarios.py data/toolsandbox/scenarios.json
"""
import functools
import json
import random
import sys

import prelude  # noqa: F401  (path, polars and clock set-up; must come first)

from tool_sandbox.common import evaluation as ev
from tool_sandbox.common import tool_trace_extractors as extractors  # noqa: F401
from tool_sandbox.common.execution_context import DatabaseNamespace
from tool_sandbox.scenarios import named_scenarios

RAPID_API_TOOLS = {
    "search_lat_lon",
    "search_location_around_lat_lon",
    "search_weather_around_lat_lon",
    "search_stock",
    "convert_currency",
}
ENUM_COLUMNS = {"sender", "recipient", "visible_to"}
COLUMN_MEASURES = {
    ev.column_exact_match_similarity: "exact",
    ev.column_close_similarity: "close",
    ev.column_one_similarity: "one",
    ev.column_contains_similarity: "contains",
    ev.column_tool_trace_exact_match_similarity: "tool_trace",
    ev.column_rouge_l_similarity: "rouge_l",
}
SNAPSHOT_MEASURES = {
    ev.snapshot_similarity: "snapshot",
    ev.addition_similarity: "addition",
    ev.removal_similarity: "removal",
    ev.update_similarity: "update",
    ev.guardrail_similarity: "guardrail",
    ev.tool_trace_dependant_similarity: "tool_trace_dependant",
}


def cell(column, value):
    if column in ENUM_COLUMNS and value is not None:
        return [str(v).lower() for v in value] if isinstance(value, list) else str(value).lower()
    return value


def frame(df):
    if df is None:
        return None
    return {
        "columns": df.columns,
        "rows": [{k: cell(k, v) for k, v in row.items()} for row in df.to_dicts()],
    }


def column_measure(fn):
    keywords = {}
    if isinstance(fn, functools.partial):
        keywords = dict(fn.keywords)
        fn = fn.func
    spec = {"kind": COLUMN_MEASURES[fn]}
    if "atol_dict" in keywords:
        spec["atol"] = keywords["atol_dict"]
    elif spec["kind"] == "close":
        raise ValueError("close similarity without atol_dict")
    return spec


def constraint(c):
    fn, keywords = c.snapshot_constraint, {}
    if isinstance(fn, functools.partial):
        keywords, fn = dict(fn.keywords), fn.func
    out = {
        "database_namespace": str(c.database_namespace).lower(),
        "snapshot_constraint": SNAPSHOT_MEASURES[fn],
        "reference_milestone_node_index": c.reference_milestone_node_index,
        "target_dataframe": frame(c.target_dataframe),
        # only what the scenario overrides: the defaults live in the port
        "column_similarity_measure": {
            k: column_measure(v)
            for k, v in (c.column_similarity_measure or {}).items()
            if v is not ev._default_dbs_column_similarities[c.database_namespace].get(k)
        },
    }
    if "fill_to" in keywords:
        out["fill_to"] = keywords["fill_to"]
    if "extractor" in keywords:
        out["extractor"] = keywords["extractor"].__name__
    return out


def milestone(m):
    return {
        "snapshot_constraints": [constraint(c) for c in m.snapshot_constraints],
        "guardrail_database_list": None
        if m.guardrail_database_list is None
        else [str(ns).lower() for ns in m.guardrail_database_list],
        "guardrail_database_exclusion_list": None,
    }


def matcher(mm):
    return [milestone(m) for m in mm.milestones], [list(e) for e in mm.edge_list or []]


def scenario(name, s):
    ctx = s.starting_context
    milestones, milestone_edges = matcher(s.evaluation.milestone_matcher)
    minefields, minefield_edges = matcher(s.evaluation.minefield_matcher)
    allow = list(ctx.tool_allow_list) if ctx.tool_allow_list is not None else None
    return {
        "name": name,
        "categories": [str(c).lower() for c in s.categories],
        "max_messages": s.max_messages,
        "tool_allow_list": allow,
        "tool_deny_list": ctx.tool_deny_list,
        "tool_augmentation_list": [str(a).lower() for a in ctx.tool_augmentation_list],
        "trace_tool": ctx.trace_tool,
        "databases": {
            str(ns).lower(): frame(ctx._dbs[ns])["rows"] for ns in DatabaseNamespace
        },
        "evaluation": {
            "milestones": milestones,
            "milestone_edges": milestone_edges,
            "minefields": minefields,
            "minefield_edges": minefield_edges,
        },
    }


def main(out):
    random.seed(42)
    scenarios = named_scenarios(preferred_tool_backend="DEFAULT")
    data = [scenario(name, s) for name, s in scenarios.items()]
    base_names = [d["name"] for d in data if "no_distraction_tools" in d["categories"]]
    network = {
        d["name"]
        for d in data
        if d["name"] in base_names and RAPID_API_TOOLS & set(d["tool_allow_list"] or [])
    }
    for d in data:
        base = next((b for b in sorted(base_names, key=len, reverse=True) if d["name"] == b or d["name"].startswith(b + "_")), None)
        d["base"] = base
        d["requires_network"] = base in network
    # variants share their base's databases: keep each distinct set once
    pool, ids = [], {}
    for d in data:
        key = json.dumps(d["databases"], sort_keys=True)
        if key not in ids:
            ids[key] = len(pool)
            pool.append(d["databases"])
        d["databases"] = ids[key]
    document = {
        "source": "apple/ToolSandbox 165848b, tool_sandbox/scenarios/ (see LICENSE, ACKNOWLEDGEMENTS)",
        "clock": prelude.FROZEN_NOW_ISO,
        "seed": 42,
        "databases": pool,
        "scenarios": data,
    }
    text = json.dumps(document, ensure_ascii=False, indent=None, separators=(",", ":"))
    # infinite tolerances (atol): JSON has no Infinity, but 1e999 parses to it everywhere
    text = text.replace(":Infinity", ":1e999")
    with open(out, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    print(f"{len(data)} scenarios, {len(base_names)} base, {len(network)} base need RapidAPI -> {out}")


if __name__ == "__main__":
    main(sys.argv[1])
