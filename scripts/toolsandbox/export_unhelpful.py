"""Plays every scenario with ToolSandbox's own UnhelpfulAgent (the do-nothing agent) and a scripted
user that ends the conversation with `end_conversation` at its first turn, under the frozen clock,
and writes what ToolSandbox's evaluator gives each conversation: the final message log and the
evaluation result. The port's tests replay the same conversation and must score the same.

    /tmp/ts-venv/bin/python scripts/toolsandbox/export_unhelpful.py test/fixtures/toolsandbox/unhelpful.json
"""
import json
import random
import sys

import prelude  # noqa: F401

from tool_sandbox.common.execution_context import DatabaseNamespace, RoleType, get_current_context
from tool_sandbox.common.message_conversion import Message
from tool_sandbox.roles.base_role import BaseRole
from tool_sandbox.roles.execution_environment import ExecutionEnvironment
from tool_sandbox.roles.unhelpful_agent import UnhelpfulAgent
from tool_sandbox.scenarios import named_scenarios

END_CALL = (
    "call_end_parameters = {}\n"
    "call_end_response = end_conversation(**call_end_parameters)\n"
    "print(repr(call_end_response))"
)


class EndingUser(BaseRole):
    """Ends the conversation at its first turn (what a user simulator does when the agent cannot help)."""

    role_type = RoleType.USER

    def respond(self, ending_index=None):
        messages = self.get_messages(ending_index=ending_index)
        if messages[-1].sender == RoleType.SYSTEM:
            return
        self.add_messages(
            [
                Message(
                    sender=RoleType.USER,
                    recipient=RoleType.EXECUTION_ENVIRONMENT,
                    content=END_CALL,
                    openai_tool_call_id="call_end",
                    openai_function_name="end_conversation",
                )
            ]
        )


def lower(v):
    if isinstance(v, list):
        return [str(x).lower() for x in v]
    return str(v).lower() if v is not None else None


def main(out):
    random.seed(42)
    scenarios = named_scenarios(preferred_tool_backend="DEFAULT")
    results = {}
    # optional START END: a slice of the scenarios, written as JSON lines as they finish (for a
    # run in parallel pieces; merge the pieces with --merge OUT PIECE...)
    start = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    end = int(sys.argv[3]) if len(sys.argv) > 3 else None
    pieces = open(out + ".jsonl", "w", encoding="utf-8") if len(sys.argv) > 2 else None
    for name, scenario in list(scenarios.items())[start:end]:
        roles = {
            RoleType.AGENT: UnhelpfulAgent(),
            RoleType.USER: EndingUser(),
            RoleType.EXECUTION_ENVIRONMENT: ExecutionEnvironment(),
        }
        context = scenario.play(roles=roles, scenario_name=name)
        result = scenario.evaluation.evaluate(context, max_turn_count=scenario.max_messages)
        log = context.get_database(
            DatabaseNamespace.SANDBOX, get_all_history_snapshots=True, drop_sandbox_message_index=False
        ).to_dicts()
        start = scenario.starting_context.max_sandbox_message_index
        added = [
            {k: (lower(v) if k in ("sender", "recipient", "visible_to") else v) for k, v in row.items()}
            for row in log
            if row["sandbox_message_index"] > start
        ]
        results[name] = {
            "added_messages": added,
            "similarity": result.similarity,
            "milestone_similarity": result.milestone_similarity,
            "minefield_similarity": result.minefield_similarity,
            "milestone_mapping": [[k, list(v)] for k, v in result.milestone_mapping.items()],
            "turn_count": result.turn_count,
        }
        if pieces:
            pieces.write(json.dumps({name: results[name]}, ensure_ascii=False) + "\n")
            pieces.flush()
    if pieces:
        return
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"clock": prelude.FROZEN_NOW_ISO, "results": results}, f, ensure_ascii=False)
        f.write("\n")
    print(f"{len(results)} scenarios -> {out}")


def merge(out, pieces):
    results = {}
    for piece in pieces:
        for line in open(piece, encoding="utf-8"):
            results.update(json.loads(line))
    order = list(json.load(open(prelude.os.path.join(prelude.HERE, "../../data/toolsandbox/scenarios.json")))["scenarios"])
    results = {s["name"]: results[s["name"]] for s in order if s["name"] in results}
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"clock": prelude.FROZEN_NOW_ISO, "results": results}, f, ensure_ascii=False)
        f.write("\n")
    print(f"{len(results)} scenarios -> {out}")


if __name__ == "__main__":
    if sys.argv[1] == "--merge":
        merge(sys.argv[2], sys.argv[3:])
    else:
        main(sys.argv[1])
