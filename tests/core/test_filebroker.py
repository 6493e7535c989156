"""The embedded site's task queue (files in the var folder, ``core.filebroker``) hands every
message over whole while other processes are writing: kombu's own file transport let a worker
take a message still being written, lost it and stopped the worker's consumer."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from kombu import Connection, Exchange, Queue

ROOT = Path(__file__).resolve().parents[2]
PUBLISHERS = 2
MESSAGES = 20  # from each publisher, a few milliseconds apart: the worker keeps up
PADDING = 1024 * 1024  # characters: a message takes a while to write


def embedded_broker(var: Path) -> tuple[str, str, dict[str, Any]]:
    """The broker URL, transport and options the site's settings give with nothing set."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DJANGO_"))}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.local", VAR_DIR=str(var))
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.CELERY_BROKER_URL, getattr(s, 'CELERY_BROKER_TRANSPORT', None), "
        "s.CELERY_BROKER_TRANSPORT_OPTIONS]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    url, transport, options = json.loads(done.stdout.strip().splitlines()[-1])
    return url, transport or url.split("://")[0], options


QUEUE = Queue("scoring", Exchange("scoring", type="direct"), routing_key="scoring")


def publish(url: str, transport: str, options: dict[str, Any], publisher: int) -> None:
    with Connection(url, transport=transport, transport_options=options) as connection:
        producer = connection.Producer(serializer="json")
        for number in range(MESSAGES):
            producer.publish(
                {"publisher": publisher, "number": number, "padding": "x" * PADDING},
                exchange=QUEUE.exchange,
                routing_key="scoring",
                declare=[QUEUE],
            )
            time.sleep(0.005)


def test_messages_written_while_a_worker_reads_arrive_whole(tmp_path: Path) -> None:
    url, transport, options = embedded_broker(tmp_path / "var")
    assert url.startswith("filesystem://")
    for folder in ("data_folder_in", "control_folder"):
        Path(options[folder]).mkdir(parents=True, exist_ok=True)
    received: set[tuple[int, int]] = set()
    failures: list[str] = []
    fork = multiprocessing.get_context("fork")
    with Connection(url, transport=transport, transport_options=options) as connection:
        channel = connection.default_channel
        QUEUE(channel).declare()
        publishers = [
            fork.Process(target=publish, args=(url, transport, options, n))
            for n in range(PUBLISHERS)
        ]
        for process in publishers:
            process.start()
        try:
            while len(received) + len(failures) < PUBLISHERS * MESSAGES:
                try:
                    message = channel.basic_get("scoring", no_ack=True)
                except ValueError as error:  # a message read before it was written
                    failures.append(repr(error))
                    continue
                if message is not None:
                    body = message.decode()
                    received.add((body["publisher"], body["number"]))
                elif not any(process.is_alive() for process in publishers):
                    break  # all written, and the queue is empty
        finally:
            for process in publishers:
                process.join(timeout=60)
    assert [p.exitcode for p in publishers] == [0] * PUBLISHERS
    assert not failures, f"{len(failures)} messages lost: {failures[:3]}"
    assert len(received) == PUBLISHERS * MESSAGES
