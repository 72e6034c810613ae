"""The child process of the ``hermes-plugin-kit`` command (:mod:`kit_devtools.cli._isolated`):
internet sockets refused unless the command was given ``--network``, then the command."""

from __future__ import annotations

import os
import socket
import sys
from typing import Any

_INTERNET = (socket.AF_INET, socket.AF_INET6)


def _refuse_internet() -> None:
    """Opening an IPv4 or IPv6 connection raises; local sockets are untouched."""

    def guarded(original: Any) -> Any:
        def call(self: socket.socket, address: Any) -> Any:
            if self.family in _INTERNET:
                msg = (
                    f"network access is off while hermes-plugin-kit runs plugin code (a"
                    f" connection to {address!r} was refused); pass --network to allow it"
                )
                raise PermissionError(msg)
            return original(self, address)

        return call

    socket.socket.connect = guarded(socket.socket.connect)
    socket.socket.connect_ex = guarded(socket.socket.connect_ex)


if __name__ == "__main__":
    if os.environ.get("HPK_NETWORK") != "1":
        _refuse_internet()
    os.environ["HPK_ISOLATED"] = "1"
    from kit_devtools.cli import finish, main

    finish(main(sys.argv[1:]))
