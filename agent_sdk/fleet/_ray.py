"""A fleet on Ray: each task runs as a Ray task on a cluster's worker (docs/fleet.md).

What crosses: the :class:`Task` and :class:`TaskSettings` go to the worker; its progress
and outcome come back, pickled (msgspec Structs and :class:`~agent_sdk.AgentError`\\ s).
The worker runs :func:`._runner.run_task` whole (isolation, attempts, retries) in an event
loop of its own, and streams its progress back as a Ray generator while it runs.

Ray is imported when a :class:`RayBackend` is made, never by ``import agent_sdk.fleet``.
"""

from __future__ import annotations

import os
import queue
import signal
import threading
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any

import anyio
import msgspec

from ..errors import AgentConfigError, AgentProcessError
from ._runner import TaskSettings, run_task
from ._types import Progress, Task, TaskOutcome

__all__ = ["RayBackend"]

POLL = 0.25
"""Seconds a caller's thread waits on Ray for the next progress before it looks whether
it was cancelled; and how often the worker looks for a cancellation (``ray.cancel``
interrupts only Python code, not a blocked wait)."""


class RayBackend:
    """Runs each task of a :class:`~agent_sdk.fleet.Fleet` as a Ray task on a cluster.

    The worker runs the task whole: its isolation, its runs and its retries, with the
    ``cursor-agent`` found on that node (or ``options.binary``, a path on the workers).
    Its progress reaches ``on_progress`` while it runs, in order; its outcome comes back
    typed, as from the local backend. The fleet's stagger spaces the tasks' first starts
    only: a retry starts on the worker after its backoff, unstaggered.

    Args:
        address: the cluster to connect to when Ray is not initialized yet:
            ``"auto"`` (the one this node is part of), ``"head:6379"``, or ``None`` for
            ``$RAY_ADDRESS`` if set (as in a Ray Job), else a new local Ray instance
            (``ray.init()``'s rules). When Ray is already initialized it is used as it
            is. Not Ray Client (``"ray://..."``): it cannot stream a task's progress.
        num_cpus: CPUs Ray reserves for each task. 1 by default: the CLI and the
            commands it runs (tests, builds) are real work on that node; lower it (0.25)
            for tasks that mostly talk, to pack more on a node.
        runtime_env: Ray's runtime environment for the tasks (``{"pip": ["agent-sdk"]}``,
            ``{"env_vars": {...}}``): workers must import ``agent_sdk``.
        ray_options: more options for each Ray task (``memory``, ``resources``,
            ``scheduling_strategy``, ...), as for ``f.options(...)``.
        init: more keyword arguments for ``ray.init()`` when this backend starts Ray.
        cancel_grace: seconds a cancelled task gets to end its CLI's process group
            before its worker process is killed (which kills the CLI, not its children).

    Raises:
        AgentConfigError: Ray is not installed (``pip install 'agent-sdk[ray]'``), or
            the address is a Ray Client one (``ray://``).

    Cancelling the fleet cancels each running Ray task: a ``KeyboardInterrupt`` in the
    worker cancels its run, whose teardown ends the CLI's process group; the caller
    waits for that up to ``cancel_grace`` seconds, then kills the worker process
    (``ray.cancel(force=True)``), and the CLI's process group dies by the worker's watchdog
    (docs/lifecycle.md).

    Example::

        from agent_sdk.fleet import Fleet, RayBackend

        async with Fleet(tasks, limit=64, backend=RayBackend(address="auto")) as fleet:
            async for outcome in fleet:
                print(outcome.task.id, outcome.ok)
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        num_cpus: float = 1.0,
        runtime_env: Mapping[str, Any] | None = None,
        ray_options: Mapping[str, Any] | None = None,
        init: Mapping[str, Any] | None = None,
        cancel_grace: float = 10.0,
    ) -> None:
        if not num_cpus >= 0 or not cancel_grace >= 0:
            raise AgentConfigError("RayBackend(num_cpus=..., cancel_grace=...) must be >= 0")
        if (address or os.environ.get("RAY_ADDRESS", "")).startswith("ray://"):
            raise AgentConfigError(
                "RayBackend cannot run through Ray Client (a ray:// address): it does "
                "not stream a task's progress back",
                hint="run the fleet's script on the cluster: `ray job submit -- python "
                "script.py`, or on a node of it with RayBackend(address='auto')",
            )
        ray = _import_ray()
        if not ray.is_initialized():
            ray.init(address=address, **dict(init or {}))
        self._ray = ray
        self.cancel_grace = cancel_grace
        options: dict[str, Any] = {"num_cpus": num_cpus, **dict(ray_options or {})}
        if runtime_env is not None:
            options["runtime_env"] = dict(runtime_env)
        # A generator task: its items reach the caller as they are yielded, in order.
        # No Ray retries: a task's retries are its own RetryPolicy's, on the worker; Ray
        # running a task again would replay its progress.
        remote = ray.remote(num_returns="streaming", max_retries=0)(_task_stream)
        self._remote: Any = remote.options(**options)

    async def run_task(
        self,
        task: Task,
        settings: TaskSettings,
        *,
        report: Callable[[Progress], object],
        before_start: Callable[[], Awaitable[None]],
    ) -> TaskOutcome:
        """Run ``task`` on a worker; its progress to ``report`` as it comes.

        Raises:
            AgentError: the task's isolation could not be made on the worker, or its
                worker died (an :class:`~agent_sdk.AgentProcessError`).
        """
        await before_start()
        stream = _Stream(self._ray, self._remote.remote(task, settings))
        final: _Final | None = None
        try:
            while final is None and not stream.over:
                for item in await stream.next():
                    if isinstance(item, _Final):
                        final = item
                        break
                    report(item)
        except BaseException:
            # Cancelled (or `report` raised): the worker must end its CLI before we go.
            with anyio.CancelScope(shield=True):
                await stream.cancel(self.cancel_grace)
            raise
        if final is None:  # not seen: the worker always ends with a _Final
            raise AgentProcessError("the Ray task ended without an outcome", hint="see Ray's logs")
        # Outside the cancelling block: a task that said its last word is ending on its own,
        # and a ray.cancel racing its end crashes the caller's process (a Ray bug: a
        # RAY_CHECK "Tried to complete task that was not pending" in the driver).
        return final.result()


# --- the caller's side ------------------------------------------------------------------
class _Stream:
    """A task's generator, read from threads so no event loop blocks (asyncio or trio)."""

    def __init__(self, ray: Any, generator: Any) -> None:
        self._ray = ray
        self._generator = generator
        self._ref: Any = None  # the next item's ref, taken but not yet ready
        self.over = False
        """The task's stream has ended."""
        # One thread at a time per task, outside anyio's default limiter (40 threads):
        # a fleet may have more tasks live than that.
        self._limiter = anyio.CapacityLimiter(1)

    async def next(self) -> list[Progress | _Final]:
        """The next items: those ready, or an empty list after :data:`POLL` seconds."""
        return await anyio.to_thread.run_sync(self._take, limiter=self._limiter)

    def _take(self) -> list[Progress | _Final]:
        ray = self._ray
        items: list[Progress | _Final] = []
        timeout = POLL
        while not self.over:
            try:
                if self._ref is None:
                    ready, _ = ray.wait([self._generator], timeout=timeout)
                    if not ready:
                        break
                    self._ref = next(self._generator)
                batch = ray.get(self._ref, timeout=timeout)
            except StopIteration:
                self.over = True
                break
            except ray.exceptions.GetTimeoutError:
                break
            except ray.exceptions.RayError as error:
                self.over = True
                raise _typed(error, ray.exceptions.RayError) from error
            self._ref = None
            items.extend(batch)
            timeout = 0  # then only what is ready already
        return items

    async def cancel(self, grace: float) -> None:
        """Cancel the Ray task, and wait for it to end: ``grace`` seconds for its run's
        teardown, then its worker is killed."""
        if self.over:
            return
        ray = self._ray
        ray.cancel(self._generator, force=False)
        with anyio.move_on_after(grace):
            while not self.over:  # the stream ends when the task has ended, not before
                try:
                    await self.next()
                except Exception:  # TaskCancelledError, as expected, or anything: it ended
                    return
            return
        ray.cancel(self._generator, force=True)


def _typed(error: Any, ray_error: type[BaseException]) -> BaseException:
    """What a Ray error means for the fleet: the worker's own exception when our code
    raised one (its type restored: a bug), else the Ray task ended without an outcome
    (its worker or node died, someone else cancelled it): the task failed."""
    cause = getattr(error, "cause", None)
    if isinstance(cause, Exception) and not isinstance(cause, ray_error):
        return cause
    return AgentProcessError(
        f"the Ray task ended without an outcome: {type(error).__name__}",
        hint="its worker process or node died (out of memory?), or it was cancelled "
        "from outside the fleet: see Ray's logs",
    )


# --- the worker's side ------------------------------------------------------------------
class _Final(msgspec.Struct, frozen=True):
    """The last item of a task's stream: its outcome, or what the task raised."""

    outcome: TaskOutcome | None = None
    error: BaseException | None = None

    def result(self) -> TaskOutcome:
        if self.error is not None:
            raise self.error
        assert self.outcome is not None
        return self.outcome


def _task_stream(task: Task, settings: TaskSettings) -> Iterator[list[Progress | _Final]]:
    """The Ray task: runs ``task`` and yields its progress in batches, then a _Final.

    The run has an event loop of its own in a thread (a blocking portal) so that this
    generator can yield while it runs. That thread starts the CLI, and lives until the
    run's teardown is over; a worker killed meanwhile leaves the CLI's group to its
    watchdog (docs/lifecycle.md).
    ``ray.cancel`` raises ``KeyboardInterrupt`` here (or closes the generator): leaving
    the portal then cancels the run and waits for its teardown, its process group ended.
    """
    items: queue.SimpleQueue[Progress | _Final] = queue.SimpleQueue()
    ignored = _hear_cancels()
    try:
        with anyio.from_thread.start_blocking_portal() as portal:
            portal.start_task_soon(_run, task, settings, items.put)
            while True:
                batch = [_get(items)]
                while not items.empty():  # what came meanwhile goes as one Ray object
                    batch.append(items.get_nowait())
                yield batch
                if isinstance(batch[-1], _Final):
                    return
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def _hear_cancels() -> bool:
    """Whether SIGINT was ignored in this worker, now heard for the task's length.

    ``ray.cancel`` interrupts the worker as a Ctrl-C does (``_thread.interrupt_main``),
    which does nothing where SIGINT is ignored: a worker started by a program that ignores
    it (a background job, ``program &``) inherits that, and a cancelled fleet would wait
    out its whole ``cancel_grace`` (docs/fleet.md, "On a Ray cluster"). Python's own
    handler, which raises ``KeyboardInterrupt``, is put back while the task runs; only in
    the worker's main thread, where Ray runs it and where a handler can be set."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        return False
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return True


def _get(items: queue.SimpleQueue[Progress | _Final]) -> Progress | _Final:
    # In short waits: a cancellation's KeyboardInterrupt is raised between them.
    while True:
        try:
            return items.get(timeout=POLL)
        except queue.Empty:
            continue


async def _run(
    task: Task, settings: TaskSettings, put: Callable[[Progress | _Final], None]
) -> None:
    try:
        outcome = await run_task(task, settings, report=put)
    except Exception as error:  # the isolation failed (an AgentError), or a bug: raised on
        put(_Final(error=error))  # the caller, as the local backend would
    else:
        put(_Final(outcome=outcome))


# --- Ray ---------------------------------------------------------------------------------
def _import_ray() -> Any:
    try:
        import ray
    except ImportError as error:
        raise AgentConfigError(
            "RayBackend needs Ray, which is not installed",
            hint="pip install 'agent-sdk[ray]'",
        ) from error
    return ray
