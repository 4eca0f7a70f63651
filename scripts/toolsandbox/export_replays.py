"""Plays a few scripted conversations (replay lines in apb's toolsandbox replay format) through
ToolSandbox's own execution environment and evaluator, under the frozen clock, and writes the
lines with what ToolSandbox scores them: the right tool calls on some scenarios, a wrong one, and
a minefield hit. The port's replay test must score the same.

    /tmp/ts-venv/bin/python scripts/toolsandbox/export_replays.py test/fixtures/toolsandbox/replays.json
"""
import json
import random
import sys

import prelude  # noqa: F401

from tool_sandbox.common.execution_context import RoleType
from tool_sandbox.common.message_conversion import Message
from tool_sandbox.roles.base_role import BaseRole
from tool_sandbox.roles.execution_environment import ExecutionEnvironment
from tool_sandbox.scenarios import named_scenarios

REPLAYS = [
    {"scenario": "cellular_off", "turns": [
        {"role": "agent", "tool_calls": [{"name": "set_cellular_service_status", "arguments": {"on": False}}]},
        {"role": "agent", "text": "Cellular service is turned off"}]},
    {"scenario": "wifi_off", "turns": [
        {"role": "agent", "tool_calls": [{"name": "set_wifi_status", "arguments": {"on": False}}]},
        {"role": "agent", "text": "I turned your wifi off."}]},
    {"scenario": "wifi_off_3_distraction_tools", "turns": [
        {"role": "agent", "tool_calls": [{"name": "set_wifi_status", "arguments": {"on": False}}]},
        {"role": "agent", "text": "Wifi is off now."}]},
    {"scenario": "cellular_off", "turns": [
        {"role": "agent", "tool_calls": [{"name": "set_cellular_service_status", "arguments": {"on": True}}]},
        {"role": "agent", "text": "Done"}]},
    {"scenario": "turn_on_wifi_low_battery_mode", "turns": [
        {"role": "agent", "tool_calls": [{"name": "set_wifi_status", "arguments": {"on": True}}]},
        {"role": "agent", "tool_calls": [{"name": "set_low_battery_mode_status", "arguments": {"on": False}}]},
        {"role": "agent", "tool_calls": [{"name": "set_wifi_status", "arguments": {"on": True}}]},
        {"role": "agent", "text": "Wifi is on; I had to turn low battery mode off first."}]},
    {"scenario": "get_cellular", "turns": [
        {"role": "agent", "tool_calls": [{"name": "get_cellular_service_status", "arguments": {}}]},
        {"role": "agent", "text": "Your cellular service is on."}]},
    {"scenario": "find_current_location_insufficient_information", "turns": [
        {"role": "agent", "tool_calls": [{"name": "search_lat_lon", "arguments": {"location": "here"}}]},
        {"role": "agent", "text": "I cannot find your location."}]},
    {"scenario": "find_current_location_insufficient_information", "turns": [
        {"role": "agent", "text": "I cannot find your current location with the tools I have."}]},
]


class Script:
    def __init__(self, turns):
        self.turns = list(turns)
        self.calls = 0


class ScriptedAgent(BaseRole):
    role_type = RoleType.AGENT

    def __init__(self, script):
        self.script = script

    def respond(self, ending_index=None):
        messages = self.get_messages(ending_index=ending_index)
        if messages[-1].sender == RoleType.SYSTEM:
            return
        turn = self.script.turns.pop(0) if self.script.turns and self.script.turns[0]["role"] == "agent" else None
        if turn is None:
            self.add_messages([Message(sender=RoleType.AGENT, recipient=RoleType.USER, content="")])
        elif "text" in turn:
            self.add_messages([Message(sender=RoleType.AGENT, recipient=RoleType.USER, content=turn["text"])])
        else:
            out = []
            for call in turn["tool_calls"]:
                self.script.calls += 1
                tid = f"call_{self.script.calls}"
                code = (
                    f"{tid}_parameters = {call['arguments']}\n"
                    f"{tid}_response = {call['name']}(**{tid}_parameters)\n"
                    f"print(repr({tid}_response))"
                )
                out.append(Message(sender=RoleType.AGENT, recipient=RoleType.EXECUTION_ENVIRONMENT, content=code,
                                   openai_tool_call_id=tid, openai_function_name=call["name"]))
            self.add_messages(out)


class ScriptedUser(BaseRole):
    role_type = RoleType.USER

    def __init__(self, script):
        self.script = script

    def respond(self, ending_index=None):
        messages = self.get_messages(ending_index=ending_index)
        if messages[-1].sender == RoleType.SYSTEM:
            return
        if self.script.turns and self.script.turns[0]["role"] == "user":
            text = self.script.turns.pop(0)["text"]
            self.add_messages([Message(sender=RoleType.USER, recipient=RoleType.AGENT, content=text)])
            return
        code = "call_end_parameters = {}\ncall_end_response = end_conversation(**call_end_parameters)\nprint(repr(call_end_response))"
        self.add_messages([Message(sender=RoleType.USER, recipient=RoleType.EXECUTION_ENVIRONMENT, content=code,
                                   openai_tool_call_id="call_end", openai_function_name="end_conversation")])


def main(out):
    random.seed(42)
    scenarios = named_scenarios(preferred_tool_backend="DEFAULT")
    results = []
    for replay in REPLAYS:
        scenario = scenarios[replay["scenario"]]
        script = Script(replay["turns"])
        roles = {RoleType.AGENT: ScriptedAgent(script), RoleType.USER: ScriptedUser(script),
                 RoleType.EXECUTION_ENVIRONMENT: ExecutionEnvironment()}
        context = scenario.play(roles=roles, scenario_name=replay["scenario"])
        r = scenario.evaluation.evaluate(context, max_turn_count=scenario.max_messages)
        results.append({"replay": replay, "similarity": r.similarity, "milestone_similarity": r.milestone_similarity,
                        "minefield_similarity": r.minefield_similarity, "turn_count": r.turn_count,
                        "milestone_mapping": [[k, list(v)] for k, v in r.milestone_mapping.items()]})
        print(replay["scenario"], r.similarity, r.minefield_similarity)
    json.dump({"clock": prelude.FROZEN_NOW_ISO, "results": results}, open(out, "w"), ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
