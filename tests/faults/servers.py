"""Private servers and site processes for the fault tests.

Each fault test breaks something on purpose (kills a worker, restarts the broker or the
database), so it never touches the machine's shared PostgreSQL, Redis or RabbitMQ: it starts
its own PostgreSQL and RabbitMQ on free ports inside a temporary folder, and its own gunicorn
and Celery worker processes against them. Everything started here is stopped, and the folder
removed, when the fixture that started it ends, failed test or not.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
BIN = Path(PYTHON).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(condition: Callable[[], Any], seconds: float, what: str, poll: float = 0.2) -> Any:
    """Poll ``condition`` until it returns something true; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {seconds:.0f}s waiting for {what}")
        time.sleep(poll)


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def scratch_dir(name: str) -> Path:
    """A temporary folder that other users (postgres) may enter."""
    path = Path(tempfile.mkdtemp(prefix=f"xq-{name}-"))
    path.chmod(0o755)
    return path


class Process:
    """A child process in its own process group, its output in a log file."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.log = log
        with log.open("ab") as handle:
            self.popen = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=handle,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def output(self, tail: int = 6000) -> str:
        return self.log.read_text(errors="replace")[-tail:]

    def kill_group(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to the process and every process it started (a machine dying)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, sig)

    def stop(self, timeout: float = 30) -> None:
        if self.alive():
            self.kill_group(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=timeout)
        self.kill_group(signal.SIGKILL)  # whatever is left of the group
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=10)


def children_of(pid: int) -> list[int]:
    found = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(Path(stat).parent.name))
    return found


# --- PostgreSQL -------------------------------------------------------------------------------


def postgres_bin() -> Path | None:
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    return Path(candidates[-1]).parent if candidates else None


class PrivatePostgres:
    """A PostgreSQL cluster of its own, listening on 127.0.0.1 only, trust authentication."""

    def __init__(self) -> None:
        binaries = postgres_bin()
        if binaries is None:
            raise RuntimeError("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
        self.bin = binaries
        self.base = scratch_dir("postgres")
        self.data = self.base / "data"
        self.log = self.base / "postgres.log"
        self.port = free_port()
        self.as_postgres = os.geteuid() == 0  # initdb refuses to run as root
        if self.as_postgres:
            shutil.chown(self.base, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                  "--no-sync")  # fmt: skip

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin / tool), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(
            command, capture_output=True, text=True, timeout=180, check=check, cwd=self.base
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' "
            "-c fsync=off -c max_connections=60 -c track_activity_query_size=16384"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", "120", "start")  # fmt: skip
        wait_until(self.ready, 60, "PostgreSQL to accept connections")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "120", "stop",
                  check=False)  # fmt: skip
        wait_until(lambda: not port_open(self.port), 60, "PostgreSQL to stop")

    def ready(self) -> bool:
        import psycopg

        try:
            psycopg.connect(self.url(), connect_timeout=2).close()
        except psycopg.Error:
            return False
        return True

    def execute(self, sql: str, database: str = "postgres") -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            cursor = conn.execute(sql)
            return cursor.fetchall() if cursor.description else []

    def destroy(self) -> None:
        try:
            self.stop("immediate")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)


# --- RabbitMQ ---------------------------------------------------------------------------------

RABBITMQ_SERVER = Path("/usr/lib/rabbitmq/bin/rabbitmq-server")
RABBITMQCTL = Path("/usr/lib/rabbitmq/bin/rabbitmqctl")


class PrivateRabbit:
    """A RabbitMQ node of its own: its own name, ports, data folder and Erlang cookie.

    Its data (``mnesia``) survives ``restart()``: durable queues and persistent messages come
    back, as on a production broker that is restarted.
    """

    def __init__(self) -> None:
        if not RABBITMQ_SERVER.exists():
            raise RuntimeError(f"RabbitMQ is not installed ({RABBITMQ_SERVER})")
        self.base = scratch_dir("rabbitmq")
        self.port = free_port()
        self.dist_port = free_port()
        self.node = f"xqfault{self.port}@localhost"
        (self.base / "enabled_plugins").write_text("[].\n")
        (self.base / "rabbitmq.conf").write_text(
            f"listeners.tcp.local = 127.0.0.1:{self.port}\nloopback_users = none\n"
        )
        (self.base / "rabbitmq-env.conf").write_text("")
        self.env = {
            **os.environ,
            "HOME": str(self.base),  # the Erlang cookie of this node lives here
            "RABBITMQ_CONF_ENV_FILE": str(self.base / "rabbitmq-env.conf"),
            "RABBITMQ_NODENAME": self.node,
            "RABBITMQ_CONFIG_FILE": str(self.base / "rabbitmq.conf"),
            "RABBITMQ_MNESIA_BASE": str(self.base / "mnesia"),
            "RABBITMQ_LOG_BASE": str(self.base / "log"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(self.base / "enabled_plugins"),
            "RABBITMQ_DIST_PORT": str(self.dist_port),
            "ERL_EPMD_ADDRESS": "127.0.0.1",
            "ERL_FLAGS": "-kernel inet_dist_use_interface {127,0,0,1}",
        }
        self.process: Process | None = None

    @property
    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.port}//"

    def start(self) -> None:
        self.process = Process(
            "rabbitmq", [str(RABBITMQ_SERVER)], self.env, self.base / "rabbitmq.out"
        )
        wait_until(self.ready, 120, "RabbitMQ to accept connections", poll=0.5)

    def ready(self) -> bool:
        if self.process is not None and not self.process.alive():
            raise RuntimeError(f"RabbitMQ exited:\n{self.process.output()}")
        from kombu import Connection

        try:
            with Connection(self.url, connect_timeout=2) as conn:
                conn.ensure_connection(max_retries=1)
        except Exception:  # noqa: BLE001 - not up yet
            return False
        return True

    def stop(self) -> None:
        """Stop the node cleanly (``rabbitmqctl stop``), as a service restart does."""
        if self.process is None:
            return
        subprocess.run(
            [str(RABBITMQCTL), "-n", self.node, "stop"],
            env=self.env, capture_output=True, timeout=120, check=False,
        )  # fmt: skip
        try:
            wait_until(lambda: not self.process.alive(), 60, "RabbitMQ to stop")  # type: ignore[union-attr]
        finally:
            self.process.stop()
            self.process = None
        wait_until(lambda: not port_open(self.port), 60, "the RabbitMQ port to close")

    def restart(self) -> None:
        self.stop()
        self.start()

    def queue_depths(self, names: list[str]) -> dict[str, int]:
        """Messages ready in each queue (a queue that does not exist counts 0)."""
        from amqp.exceptions import NotFound
        from kombu import Connection

        depths = {}
        with Connection(self.url, connect_timeout=5) as conn:
            for name in names:
                channel = conn.channel()
                try:
                    depths[name] = channel.queue_declare(name, passive=True).message_count
                except NotFound:
                    depths[name] = 0
                finally:
                    with contextlib.suppress(Exception):  # closed by the broker after NotFound
                        channel.close()
        return depths

    def destroy(self) -> None:
        try:
            self.stop()
        finally:
            if self.process is not None:
                self.process.stop()
            shutil.rmtree(self.base, ignore_errors=True)


# --- Redis ------------------------------------------------------------------------------------

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


class PrivateRedis:
    """A Redis server of its own, on 127.0.0.1 and a free port, keeping nothing on disk: a
    restart empties it, as a restarted or replaced cache server is empty."""

    def __init__(self) -> None:
        if not Path(REDIS_SERVER).exists():
            raise RuntimeError("redis-server is not installed")
        self.base = scratch_dir("redis")
        self.port = free_port()
        self.process: Process | None = None

    def url(self, database: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        command = [
            REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.base),
            "--save", "", "--appendonly", "no", "--protected-mode", "no",
        ]  # fmt: skip
        self.process = Process("redis", command, dict(os.environ), self.base / "redis.log")
        wait_until(self.ready, 30, "Redis to accept connections")

    def ready(self) -> bool:
        if self.process is not None and not self.process.alive():
            raise RuntimeError(f"Redis exited:\n{self.process.output()}")
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=1).ping())
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()
            self.process = None
        wait_until(lambda: not port_open(self.port), 30, "the Redis port to close")

    def destroy(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.base, ignore_errors=True)


# --- The site: gunicorn and Celery workers against the private servers --------------------------

# The token of /healthz/full on the site under test.
HEALTH_TOKEN = "fault-tests-health-token-0123456789"

TASK_LINE = re.compile(r"Task (?P<name>[\w.]+)\[(?P<id>[0-9a-f-]+)\] (?P<event>received|succeeded)")


class Site:
    """Web and worker processes of the site, configured by environment like a deployment."""

    def __init__(
        self, database_url: str, broker_url: str, logs: Path, queue_prefix: str, **extra: str
    ) -> None:
        self.logs = logs
        kinds = ("celery", "proving", "scoring", "playing", "playing_deep", "mining")
        self.queue_names = [f"{queue_prefix}{kind}" for kind in kinds]
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "PYTEST_"))},
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": broker_url,
            "CELERY_QUEUE_PREFIX": queue_prefix,
            # Many players sign in from one address here and poll from it; those limits are tested
            # elsewhere.
            "THROTTLE_RATES": (
                "attempts=100000/min,drafts=100000/min,puzzle_submissions=100000/min,"
                "login=100000/min,login_account=100000/hour,reads=1000000/min"
            ),
            # ... and submit their puzzles from it: the per-address cap is tested elsewhere
            # (tests/puzzles/test_proving_queue.py).
            "PROVING_ADDRESS_LIMIT": "1000",
            "PYTHONUNBUFFERED": "1",
            "HEALTH_TOKEN": HEALTH_TOKEN,
            **extra,
        }
        self.processes: list[Process] = []

    def manage(self, *args: str, timeout: float = 600) -> str:
        result = subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
        if result.returncode != 0:
            raise RuntimeError(
                f"manage.py {' '.join(args)} failed:\n{result.stdout}{result.stderr}"
            )
        return result.stdout

    def web(self, workers: int = 2) -> tuple[Process, str]:
        port = free_port()
        process = Process(
            "web",
            [str(BIN / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", str(workers), "--timeout", "60", "--graceful-timeout", "5"],
            self.env,
            self.logs / f"web-{port}.log",
        )  # fmt: skip
        self.processes.append(process)
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: port_open(port) or self._dead(process), 90, "gunicorn to listen")
        return process, url

    def asgi_web(self, workers: int = 1, **extra: str) -> tuple[Process, str]:
        """The site served as ``scripts/run`` serves it (gunicorn, uvicorn workers: the pages
        and the live games' WebSockets); ``extra``: environment of this process only."""
        port = free_port()
        process = Process(
            "asgi",
            [str(BIN / "gunicorn"), "config.asgi:application", "--worker-class",
             "config.web_worker.WebWorker", "--bind", f"127.0.0.1:{port}", "--workers",
             str(workers), "--graceful-timeout", "5"],
            {**self.env, **extra},
            self.logs / f"asgi-{port}.log",
        )  # fmt: skip
        self.processes.append(process)
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: port_open(port) or self._dead(process), 90, "gunicorn to listen")
        return process, url

    def worker(self, name: str, queues: list[str] | None = None) -> Process:
        """A prefork worker of one process, reading ``queues`` (default: all three)."""
        log = self.logs / f"worker-{name}.log"
        process = Process(
            f"worker-{name}",
            [PYTHON, "-m", "celery", "-A", "config", "worker", "--pool", "prefork",
             "--concurrency", "1", "--queues", ",".join(queues or self.queue_names), "--hostname", f"{name}@localhost",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "INFO"],
            self.env,
            log,
        )  # fmt: skip
        self.processes.append(process)
        wait_until(
            lambda: " ready." in log.read_text(errors="replace") or self._dead(process),
            120,
            f"worker {name} to be ready",
        )
        return process

    @staticmethod
    def _dead(process: Process) -> bool:
        if not process.alive():
            raise RuntimeError(f"{process.name} exited:\n{process.output()}")
        return False

    def task_events(self, task: str) -> dict[str, dict[str, int]]:
        """For each task id of ``task``: how often it was received and succeeded, over all logs."""
        events: dict[str, dict[str, int]] = {}
        for log in self.logs.glob("worker-*.log"):
            for match in TASK_LINE.finditer(log.read_text(errors="replace")):
                if match["name"] == task:
                    counts = events.setdefault(match["id"], {"received": 0, "succeeded": 0})
                    counts[match["event"]] += 1
        return events

    def wait_succeeded(self, task: str, count: int, timeout: float = 60) -> None:
        """Wait until the logs show ``count`` successes of ``task``: a task's writes are
        committed before it returns, so its "succeeded" line comes a moment after them."""
        wait_until(
            lambda: sum(c["succeeded"] for c in self.task_events(task).values()) >= count,
            timeout,
            f"the workers to log {count} successes of {task}",
        )

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.stop()
        self.processes.clear()

    def output(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.output(3000)}" for p in self.processes)
