#!/usr/bin/env python3
"""A planner as code, as a long-lived process: apb run --model "cmd:python3 examples/planner.py".

apb writes one JSON request per line on stdin and reads one JSON answer per line on stdout
(CONTRACT.md, Model specs); stderr is passed through, so print diagnostics there. This is the
keyword planner of planner.ts, line for line, so the two give identical predictions.
Set PLANNER_CRASH_ON=ID,ID to make the process exit on those cases (apb's restart test).
"""
import json
import os
import re
import sys

CRASH_ON = {value for value in os.environ.get("PLANNER_CRASH_ON", "").split(",") if value}


def text_of(message):
    content = message["content"]
    if isinstance(content, str):
        return content
    return "\n".join(part.get("text", "") if part["type"] == "text" else "" for part in content)


def words_of(text):
    return re.findall(r"[a-z0-9]+", text.lower())


def read_prompt(messages):
    tools, request = [], []
    for message in (each for each in messages if each["role"] == "user"):
        for line in text_of(message).split("\n"):
            match = re.match(r'^\{"name":"([A-Za-z0-9_.-]+)"', line.strip())
            if match:
                tools.append(match.group(1))
            else:
                request.append(line)
    return tools, set(words_of("\n".join(request)))


def choose(tools, request):
    chosen = [
        tool
        for tool in tools
        if any(len(word) >= 4 and word in request for word in re.split(r"[_.-]", tool.lower()))
    ]
    return chosen[:3]


def plan_case(request):
    tools, words = read_prompt(request["messages"])
    chosen = choose(tools, words)
    system = "\n".join(text_of(each) for each in request["messages"] if each["role"] == "system")
    if "predicted_steps" in system:
        answer = {
            "predicted_steps": [
                {"thought": f"The request mentions {tool}.", "tool": tool, "arguments": {}}
                for tool in chosen
            ]
        }
    else:
        answer = {
            "plan": "\n".join(f"{index + 1}. Call {tool}." for index, tool in enumerate(chosen)),
            "tool_chain": [
                {
                    "name": tool,
                    "parameter_description": {},
                    "reason": f"The request mentions {tool}.",
                }
                for tool in chosen
            ],
        }
    # The same bytes as JavaScript's JSON.stringify.
    text = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
    used = sum(len(words_of(text_of(each))) for each in request["messages"])
    return {
        "id": request["id"],
        "text": text,
        "usage": {"input_tokens": used, "output_tokens": len(words_of(text))},
    }


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("id") in CRASH_ON:
            print(f"planner.py: crashing on {request['id']} as asked", file=sys.stderr)
            sys.exit(3)
        try:
            answer = plan_case(request)
        except Exception as error:  # one bad case is that case's error, not the process's end
            answer = {"id": request.get("id"), "error": str(error)}
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
