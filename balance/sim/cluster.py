"""Cluster backends: the same batches, with the same seeds, on dask.distributed or ray.

Results come back in submission order, whatever order the workers finish in, so a cluster run
writes the same tables as a local one. At most a few batches per worker are in flight, so a
million-game run never queues a million futures. Workers need `balance` (and any plug-in game)
installed, as on the machine that submits.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from balance.core.errors import ConfigError
from balance.sim.runner import Batch, BatchResult, play_batch

IN_FLIGHT_PER_WORKER = 3


def run_dask(work: Iterator[Batch], scheduler: str | None, jobs: int) -> Iterator[BatchResult]:
    """On the dask scheduler at `scheduler` (tcp://host:8786), or a local cluster of `jobs`
    worker processes when no address is given."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ConfigError(
            "--backend dask",
            None,
            "dask.distributed is not installed",
            "pip install 'balance[cluster]'",
        ) from None
    cluster: Any = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except OSError as e:
            raise ConfigError(
                "--scheduler",
                None,
                f"cannot reach the dask scheduler at {scheduler}: {e}",
                "check the address and that the scheduler runs",
            ) from None
    else:
        cluster = LocalCluster(
            n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    workers = max(1, len(client.scheduler_info().get("workers", {})) or jobs)
    pending: deque[Any] = deque()
    try:
        for batch in work:
            pending.append(client.submit(play_batch, batch, pure=False))
            if len(pending) >= workers * IN_FLIGHT_PER_WORKER:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
        client.close()
        if cluster is not None:
            cluster.close()


def run_ray(work: Iterator[Batch], address: str | None, jobs: int) -> Iterator[BatchResult]:
    """On the ray cluster at `address` ("auto" for the one this machine belongs to), or a local
    ray of `jobs` CPUs when no address is given."""
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "--backend ray", None, "ray is not installed", "pip install 'balance[ray]'"
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(
            address=address,
            num_cpus=None if address else jobs,
            include_dashboard=False,
            log_to_driver=False,
        )
    remote = ray.remote(play_batch)
    pending: deque[Any] = deque()
    workers = max(1, int(ray.available_resources().get("CPU", jobs)))
    try:
        for batch in work:
            pending.append(remote.remote(batch))
            if len(pending) >= workers * IN_FLIGHT_PER_WORKER:
                yield ray.get(pending.popleft())
        while pending:
            yield ray.get(pending.popleft())
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started_here:
            ray.shutdown()
