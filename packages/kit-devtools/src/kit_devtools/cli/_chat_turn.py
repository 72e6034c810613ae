"""The gateway chat turn ``call`` and ``check --probe`` run a tool in.

hermes tells a tool which chat it is answering through the session values the gateway
binds for each message; the in-memory host takes them in ``InMemoryHost.session_env``.
Without them a media tool's ``deliver_media(..., "origin")`` has no chat to deliver to.
The commands bind a simulated Telegram chat (and the call's session id, which hermes binds
too), so a media tool delivers to it: kit-media's delivery goes through the host's recorded
``send_message`` (``InMemoryHost.sent_messages``), and nothing leaves the machine.
"""

from __future__ import annotations

from typing import Final

from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._standin_state import SESSION_ID_VARIABLE

__all__ = ["SIMULATED_CHAT", "delivered_lines", "simulate_chat_turn"]

SIMULATED_CHAT: Final = {
    "HERMES_SESSION_PLATFORM": "telegram",
    "HERMES_SESSION_CHAT_ID": "-1000000000001",
    "HERMES_SESSION_THREAD_ID": "10001",
}
"""The chat of the simulated turn: a Telegram supergroup's topic (no real chat has this id)."""


def simulate_chat_turn(host: InMemoryHost, session_id: str) -> None:
    """Bind the simulated chat, and ``session_id`` as the turn's session, on ``host``."""
    host.session_env.update({**SIMULATED_CHAT, SESSION_ID_VARIABLE: session_id})


def delivered_lines(host: InMemoryHost) -> list[str]:
    """What the tool sent through ``send_message`` in the simulated turn, for the report:
    none when it sent nothing."""
    sent = host.sent_messages
    if not sent:
        return []
    chat = ":".join(SIMULATED_CHAT.values())  # platform:chat id:thread id
    lines = [
        f"sent in the simulated chat turn ({chat}, session"
        f" {host.session_env.get(SESSION_ID_VARIABLE)}; recorded, nothing left this machine):"
    ]
    for message in sent:
        lines.append(f"  send_message to {message.get('target')}:")
        lines += [f"    {line}" for line in str(message.get("message", "")).splitlines()]
    return lines
