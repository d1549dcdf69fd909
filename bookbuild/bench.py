"""What the benchmark programs in tools/ (``make bench``) share: the load average printed beside
every time (this machine is shared)."""

from __future__ import annotations

import os


def load() -> str:
    """The 1, 5 and 15 minute load averages, as printed beside a measured time."""
    return "load average " + ", ".join(f"{x:.1f}" for x in os.getloadavg())

