"""Exports, for every scenario, the tool list its agent is offered, exactly as ToolSandbox's agents
build it (`convert_to_openai_tools` over the scenario's allowed agent-visible tools, with its
description / argument-type / argument-description / tool-name scrambling), to
data/toolsandbox/tools.json: distinct lists once, each scenario naming its list and the
agent-facing to execution-facing tool name map.

    /tmp/ts-venv/bin/python scripts/toolsandbox/export_tools.py data/toolsandbox/tools.json
"""
import json
import random
import sys

import prelude  # noqa: F401

from tool_sandbox.common.execution_context import RoleType, new_context
from tool_sandbox.common.tool_conversion import convert_to_openai_tools
from tool_sandbox.scenarios import named_scenarios


def main(out):
    random.seed(42)
    scenarios = named_scenarios(preferred_tool_backend="DEFAULT")
    lists, ids, per_scenario = [], {}, {}
    for name, scenario in scenarios.items():
        with new_context(scenario.starting_context) as context:
            available = {
                agent_name: tool
                for agent_name, tool in context.get_available_tools(scrambling_allowed=True).items()
                if RoleType.AGENT in getattr(tool, "visible_to", (RoleType.AGENT,))
            }
            tools = convert_to_openai_tools(available)
            names = {agent_name: tool.__name__ for agent_name, tool in available.items()}
        key = json.dumps(tools, sort_keys=True)
        if key not in ids:
            ids[key] = len(lists)
            lists.append(tools)
        per_scenario[name] = {"tools": ids[key], "names": names}
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"tool_lists": lists, "scenarios": per_scenario}, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"{len(per_scenario)} scenarios, {len(lists)} distinct tool lists -> {out}")


if __name__ == "__main__":
    main(sys.argv[1])
