"""The ids apb's port hands out (src/execution/environments/toolsandbox/tool-runtime.ts), so that
ToolSandbox run here writes the same ids: uuid5-style sha1 hashes of a per-world counter, in place
of uuid4(). `install()` patches the tool modules; `reset()` restarts the counter for a new world."""
import hashlib
import uuid

import prelude

_count = [0]


def _next_id():
    _count[0] += 1
    seed = f"apb-toolsandbox:{prelude.FROZEN_NOW_ISO}:{_count[0]}"
    digest = hashlib.sha1(seed.encode()).hexdigest()
    variant = format((int(digest[16], 16) & 0x3) | 0x8, "x")
    return uuid.UUID(
        f"{digest[0:8]}-{digest[8:12]}-5{digest[13:16]}-{variant}{digest[17:20]}-{digest[20:32]}"
    )


def reset():
    _count[0] = 0


def install():
    from tool_sandbox.tools import contact, messaging, reminder

    for module in (contact, messaging, reminder):
        module.uuid4 = _next_id
