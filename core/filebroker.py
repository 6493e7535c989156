"""The task queue kept in files, for the embedded site (``scripts/run`` with no broker set):
kombu's ``filesystem`` transport, with each message written whole before it can be read.

kombu writes a message straight into the queue's folder under its final name, and a worker
that looks at the folder while another process is still writing takes the file empty: the
message is lost and the worker's consumer stops with a JSON error (kombu issue 1551). Here a
message is written under a name no queue reads, then renamed into place (atomic on one file
system), so a worker sees it whole or not at all. Selected by ``CELERY_BROKER_TRANSPORT`` in
the settings; the broker URL stays ``filesystem://``.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        """Put ``payload`` onto ``queue``: written in full, then renamed into the folder."""
        folder = self.data_folder_out
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        partial = os.path.join(folder, f".writing-{uuid.uuid4()}")  # not a ``.<queue>.msg``
        try:
            with open(partial, "wb") as handle:
                handle.write(dumps(payload).encode())
            os.replace(partial, os.path.join(folder, name))
        except OSError as error:
            raise ChannelError(f"Cannot add file {name!r} to directory") from error


class Transport(filesystem.Transport):
    Channel = Channel
