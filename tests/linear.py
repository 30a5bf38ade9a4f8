"""Linear time, asserted without a clock's absolute reading: the CPU time of a run on an
input eight times as large, against a run on the smaller one measured in the same test.
Linear work costs about 8x; quadratic, 64x. The bound (24x) is generous to noise, and a
loaded machine slows both runs alike."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

FACTOR = 8
BOUND = 24.0


def _cpu(run: Callable[[str], object], text: str, tries: int) -> float:
    """The best of `tries` runs' CPU time, the cyclic collector held off while each
    runs: a collection lands in one run or another by allocation count, which is the
    machine's noise, not the code's growth (a CI run failed so at 27x, linear alone)."""
    best = float("inf")
    for _ in range(tries):
        gc.disable()
        try:
            start = time.process_time()
            run(text)
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def assert_linear(run: Callable[[str], object], make: Callable[[int], str], size: int = 100_000,
                  label: object = "") -> None:
    """`run(make(size))` costs at most BOUND times `run(make(size // FACTOR))`."""
    small, large = make(size // FACTOR), make(size)
    run(small)  # patterns compile on first use: not counted
    base = max(_cpu(run, small, 3), 2e-3)  # (below 2 ms the machine is the noise)
    grown = _cpu(run, large, 3)
    assert grown / base < BOUND, f"{label}: {grown:.3f} s at {size} characters, {base:.4f} s at {len(small)}"


def repeated(unit: str) -> Callable[[int], str]:
    """Inputs of `unit` repeated up to a size."""
    return lambda n: (unit * (n // len(unit) + 1))[:n]
