"""The send_message call the kit_media host tests make, and the context hermes passes."""

from __future__ import annotations

ARGS = {"action": "send", "target": "telegram:-1001234567890", "message": "hi"}
CONTEXT = {
    "task_id": "task-1",
    "session_id": "session-1",
    "tool_call_id": "call-1",
    "turn_id": "turn-1",
    "api_request_id": "req-1",
}
