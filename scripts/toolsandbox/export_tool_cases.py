"""Runs tool calls through ToolSandbox's own tools (under the frozen clock, in UTC, with apb's id
sequence: apb_ids.py) and writes what the agent would see of each call, and the contact,
messaging and reminder tables after the calls, as the fixture of apb's tool tests. Also exports
rapidfuzz scores (WRatio, partial_ratio) and the holidays package's US holiday lists.

    /tmp/ts-venv/bin/python scripts/toolsandbox/export_tool_cases.py \
        test/fixtures/toolsandbox/tool-cases.json

Not covered here (their packages are not installable on this machine): phone-number parsing
(phonenumbers: every number parses in this export) and the distance tool (geopy).
"""
import copy
import json
import re
import sys
import types

import prelude
import apb_ids

import holidays
import rapidfuzz
from rapidfuzz import fuzz, utils

from tool_sandbox.common import validators
from tool_sandbox.common.execution_context import DatabaseNamespace, new_context
from tool_sandbox.common.utils import register_as_tool  # noqa: F401  (tools register on import)
from tool_sandbox.scenarios import named_scenarios
from tool_sandbox.tools import contact, messaging, reminder, setting, utilities

from tool_cases import CASES, FUZZY_PAIRS

TOOLS = {
    name: getattr(module, name)
    for module in (contact, messaging, reminder, setting, utilities)
    for name in dir(module)
    if getattr(getattr(module, name), "is_tool", False)
}


def exception_line(error):
    kind = type(error)
    name = kind.__qualname__
    if kind.__module__ not in ("builtins", "__main__"):
        name = f"{kind.__module__}.{name}"
    text = str(error)
    line = f"{name}: {text}" if text else name
    return re.sub(r" at 0x[0-9A-Fa-f]+>", " at 0x7F0000000000>", line)


def run_case(scenarios, case):
    context = copy.deepcopy(scenarios[case["scenario"]].starting_context)
    context.trace_tool = False
    apb_ids.reset()
    outputs = []
    with new_context(context):
        for call in case["calls"]:
            try:
                outputs.append(repr(TOOLS[call["name"]](**call["arguments"])))
            except Exception as error:  # the agent sees the traceback's last line
                outputs.append(exception_line(error))
        tables = {
            ns: context.get_database(getattr(DatabaseNamespace, ns.upper())).to_dicts()
            for ns in ("contact", "messaging", "reminder")
        }
    return {**case, "outputs": outputs, "tables": tables}


def main(out):
    apb_ids.install()
    # phonenumbers is stubbed by prelude.py (not installable here): every number parses in this
    # export; the port's phone-number checks are tested on their own (toolsandbox-phone test)
    validators.phonenumbers = types.SimpleNamespace(parse=lambda number, region=None: None)
    scenarios = named_scenarios(preferred_tool_backend="DEFAULT")
    cases = [run_case(scenarios, case) for case in CASES]
    fuzzy = [
        {
            "a": a,
            "b": b,
            "wratio": fuzz.WRatio(a, b, processor=utils.default_process),
            "partial_ratio": fuzz.partial_ratio(a, b, processor=utils.default_process),
        }
        for a, b in FUZZY_PAIRS
    ]
    us = {
        year: [
            [d.isoformat(), name]
            for d, name in sorted(holidays.country_holidays(country="US", years=year).items())
        ]
        for year in range(1990, 2061)
    }
    json.dump(
        {
            "clock": prelude.FROZEN_NOW_ISO,
            "versions": {"rapidfuzz": rapidfuzz.__version__, "holidays": holidays.__version__},
            "cases": cases,
            "fuzzy": fuzzy,
            "us_holidays": us,
        },
        open(out, "w"),
        ensure_ascii=False,
        indent=1,
    )
    for case in cases:
        print(case["title"])
        for call, output in zip(case["calls"], case["outputs"]):
            print("  ", call["name"], json.dumps(call["arguments"]), "->", output[:150])


if __name__ == "__main__":
    main(sys.argv[1])
