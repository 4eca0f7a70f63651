"""Plays a few scripted conversations (replay lines in apb's toolsandbox replay format) through
ToolSandbox's own execution environment and evaluator, under the frozen clock, and writes the
lines with what ToolSandbox scores them: the right tool calls on some scenarios, a wrong one, and
a minefield hit. The port's replay test must score the same.

    /tmp/ts-venv/bin/python scripts/toolsandbox/export_replays.py test/fixtures/toolsandbox/replays.json
"""
import json
import random
import sys
import types

import prelude  # noqa: F401
import apb_ids

from tool_sandbox.common.execution_context import RoleType, get_current_context
from tool_sandbox.common import validators
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
    # the contact, messaging, reminder and utility tools
    {"scenario": "add_contact_with_name_and_phone_number", "turns": [
        {"role": "agent", "tool_calls": [{"name": "add_contact", "arguments": {"name": "Stephen Sondheim", "phone_number": "+19876543210"}}]},
        {"role": "agent", "text": "Stephen Sondheim has been added to your contact"}]},
    {"scenario": "remove_contact_with_id", "turns": [
        {"role": "agent", "tool_calls": [{"name": "remove_contact", "arguments": {"person_id": "9e137f06-916a-5310-8174-cf0b7e9f7054"}}]},
        {"role": "agent", "text": "9e137f06-916a-5310-8174-cf0b7e9f7054 has been removed from your contact"}]},
    {"scenario": "update_contact_with_id_and_phone_number", "turns": [
        {"role": "agent", "tool_calls": [{"name": "modify_contact", "arguments": {"person_id": "9e137f06-916a-5310-8174-cf0b7e9f7054", "phone_number": "+19876543210"}}]},
        {"role": "agent", "text": "9e137f06-916a-5310-8174-cf0b7e9f7054's  phone number have been updated to +19876543210"}]},
    {"scenario": "send_message_with_phone_number_and_content", "turns": [
        {"role": "agent", "tool_calls": [{"name": "send_message_with_phone_number", "arguments": {"phone_number": "+12453344098", "content": "How's the new album coming along"}}]},
        {"role": "agent", "text": "Your message to +12453344098 has been sent saying: How's the new album coming along"}]},
    {"scenario": "add_reminder_content_and_date_and_time", "turns": [
        {"role": "agent", "tool_calls": [{"name": "datetime_info_to_timestamp", "arguments": {"year": 2024, "month": 3, "day": 22, "hour": 17, "minute": 0, "second": 0}}]},
        {"role": "agent", "tool_calls": [{"name": "add_reminder", "arguments": {"content": "Buy chocolate milk", "reminder_timestamp": 1711126800}}]},
        {"role": "agent", "text": "I added a reminder to buy chocolate milk on 3/22/2024 5PM."}]},
    {"scenario": "find_days_till_holiday", "turns": [
        {"role": "agent", "tool_calls": [{"name": "get_current_timestamp", "arguments": {}}]},
        {"role": "agent", "tool_calls": [{"name": "search_holiday", "arguments": {"holiday_name": "Christmas Day"}}]},
        {"role": "agent", "tool_calls": [{"name": "timestamp_diff", "arguments": {"timestamp_0": 1725278400, "timestamp_1": 1735084800}}]},
        {"role": "agent", "text": "It is 113 days till Christmas Day"}]},
    {"scenario": "send_message_with_contact_content_cellular_off", "turns": [
        {"role": "agent", "tool_calls": [{"name": "search_contacts", "arguments": {"name": "Fredrik Thordendal"}}]},
        {"role": "agent", "tool_calls": [{"name": "send_message_with_phone_number", "arguments": {"phone_number": "+12453344098", "content": "How's the new album coming along"}}]},
        {"role": "agent", "tool_calls": [{"name": "set_cellular_service_status", "arguments": {"on": True}}]},
        {"role": "agent", "tool_calls": [{"name": "send_message_with_phone_number", "arguments": {"phone_number": "+12453344098", "content": "How's the new album coming along"}}]},
        {"role": "agent", "text": "Your message to Fredrik Thordendal has been sent saying: How's the new album coming along"}]},
    {"scenario": "add_contact_with_name_and_phone_number_3_distraction_tools_tool_name_scrambled", "turns": [
        {"role": "agent", "tool_calls": [{"name": "SCRAMBLED:add_contact", "arguments": {"name": "Stephen Sondheim", "phone_number": "+19876543210"}}]},
        {"role": "agent", "text": "Stephen Sondheim has been added to your contact"}]},
    {"scenario": "send_message_with_phone_number_and_content", "turns": [
        {"role": "agent", "tool_calls": [{"name": "send_message_with_phone_number", "arguments": {"phone_number": "12453344098", "content": "Hi"}}]},
        {"role": "agent", "text": "I could not send it."}]},
]


class NumberParseException(Exception):
    """phonenumbers.phonenumberutil.NumberParseException's text: `(code) message`."""

    __module__ = "phonenumbers.phonenumberutil"

    def __init__(self, code, message):
        super().__init__(f"({code}) {message}")


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
                # the code names the execution-facing tool (unscrambled), as ToolSandbox's agents do
                actual = get_current_context().get_execution_facing_tool_name(call["name"])
                code = (
                    f"{tid}_parameters = {call['arguments']}\n"
                    f"{tid}_response = {actual}(**{tid}_parameters)\n"
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


def resolve_scrambled(replay, scenario):
    """`SCRAMBLED:<tool>` -> the agent-facing name the variant gives that tool."""
    context = scenario.starting_context
    for turn in replay["turns"]:
        for call in turn.get("tool_calls", []):
            if call["name"].startswith("SCRAMBLED:"):
                call["name"] = context.get_agent_facing_tool_name(call["name"][len("SCRAMBLED:"):])


def main(out):
    random.seed(42)
    apb_ids.install()
    # phonenumbers is not installable here (prelude.py stubs it): a stand-in that accepts what
    # phonenumbers.parse(number) accepts for these lines (a leading +) and rejects the rest
    def parse(number, region=None):
        if not number.startswith("+"):
            raise NumberParseException(0, "Missing or invalid default region.")

    validators.phonenumbers = types.SimpleNamespace(parse=parse)
    scenarios = named_scenarios(preferred_tool_backend="DEFAULT")
    results = []
    for replay in REPLAYS:
        scenario = scenarios[replay["scenario"]]
        resolve_scrambled(replay, scenario)
        apb_ids.reset()
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
