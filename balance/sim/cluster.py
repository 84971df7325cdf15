"""Cluster backends: the same batches, with the same seeds, on dask.distributed or ray.

Results come back in submission order, whatever order the workers finish in, so a cluster run
writes the same tables as a local one. At most a few batches per worker are in flight, so a
million-game run never queues a million futures. Workers need `balance` (and any plug-in game)
installed, as on the machine that submits.

A lost worker is the cluster's business: dask and ray play its tasks again elsewhere (dask up
to its `allowed-failures`, ray up to a task's `max_retries`) and report a task as lost only
after that, which ends the run here (`WorkerLost`, then `RunFailed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from balance.core.errors import ConfigError
from balance.sim.runner import Batch, BatchResult, WorkerLost, play_batch

IN_FLIGHT_PER_WORKER = 3


class DaskPool:
    """The dask scheduler at `scheduler` (tcp://host:8786), or a local cluster of `jobs` worker
    processes when no address is given."""

    def __init__(self, scheduler: str | None, jobs: int) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise ConfigError(
                "--backend dask",
                None,
                "dask.distributed is not installed",
                "pip install 'balance[cluster]'",
            ) from None
        self.cluster: Any = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="20s")
            except OSError as e:
                raise ConfigError(
                    "--scheduler",
                    None,
                    f"cannot reach the dask scheduler at {scheduler}: {e}",
                    "check the address and that the scheduler runs",
                ) from None
        else:
            self.cluster = LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None
            )
            self.client = Client(self.cluster)
        workers = max(1, len(self.client.scheduler_info().get("workers", {})) or jobs)
        self.in_flight = workers * IN_FLIGHT_PER_WORKER

    def submit(self, batch: Batch) -> Any:
        return self.client.submit(play_batch, batch, pure=False)

    def result(self, handle: Any, timeout: float) -> BatchResult | None:
        from distributed import KilledWorker

        try:
            result: BatchResult = handle.result(timeout=timeout)
        except TimeoutError:
            return None
        except KilledWorker as e:
            raise WorkerLost(str(e)) from None
        return result

    def replace_workers(self) -> bool:
        return False  # the scheduler has already retried the task on other workers

    def cancel(self, handles: Sequence[Any]) -> None:
        for future in handles:
            future.cancel()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


class RayPool:
    """The ray cluster at `address` ("auto" for the one this machine belongs to), or a local
    ray of `jobs` CPUs when no address is given."""

    def __init__(self, address: str | None, jobs: int) -> None:
        try:
            import ray
        except ImportError:
            raise ConfigError(
                "--backend ray", None, "ray is not installed", "pip install 'balance[ray]'"
            ) from None
        self.ray = ray
        self.started_here = not ray.is_initialized()
        if self.started_here:
            ray.init(
                address=address,
                num_cpus=None if address else jobs,
                include_dashboard=False,
                log_to_driver=False,
            )
        self.remote = ray.remote(play_batch)
        workers = max(1, int(ray.available_resources().get("CPU", jobs)))
        self.in_flight = workers * IN_FLIGHT_PER_WORKER

    def submit(self, batch: Batch) -> Any:
        return self.remote.remote(batch)

    def result(self, handle: Any, timeout: float) -> BatchResult | None:
        from ray.exceptions import GetTimeoutError, RayTaskError

        try:
            result: BatchResult = self.ray.get(handle, timeout=timeout)
        except GetTimeoutError:
            return None
        except RayTaskError:
            raise  # an exception inside play_batch: a bug, shown as such
        except self.ray.exceptions.RayError as e:  # the worker or its node died, retries spent
            raise WorkerLost(str(e).splitlines()[0]) from None
        return result

    def replace_workers(self) -> bool:
        return False  # ray has already retried the task

    def cancel(self, handles: Sequence[Any]) -> None:
        for ref in handles:
            self.ray.cancel(ref, force=True)

    def close(self) -> None:
        if self.started_here:
            self.ray.shutdown()
