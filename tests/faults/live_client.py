"""A live game's player in a process of its own, for the fault tests (tests/faults/live.py):

    python -m tests.faults.live_client BASE SLUG COOKIES

Connects to the game's WebSocket as the page does, prints ``{"type": "connected", "port"}``
(its own TCP port) and then every message it receives, one JSON a line, answering the server's
probes at once; each line of its standard input is sent as a message. A test freezes the
process (SIGSTOP) to make a client that answers nothing, protocol pings included."""

from __future__ import annotations

import json
import sys
import threading

from websockets.sync.client import ClientConnection, connect


def forward(ws: ClientConnection) -> None:
    for line in sys.stdin:
        ws.send(line.strip())


def main(base: str, slug: str, cookies: str) -> None:
    url = "ws" + base.removeprefix("http") + f"/ws/live/{slug}/"
    with connect(url, origin=base, additional_headers={"Cookie": cookies}) as ws:
        print(json.dumps({"type": "connected", "port": ws.socket.getsockname()[1]}), flush=True)
        threading.Thread(target=forward, args=(ws,), daemon=True).start()
        for text in ws:
            message = json.loads(text)
            if message["type"] == "probe":
                ws.send(json.dumps({"type": "probe", "id": message["id"]}))
            print(json.dumps(message), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
