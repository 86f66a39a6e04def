"""CPU spent so far by every process of a name on this machine (Linux /proc): the services a
benchmark's servers share the cores with (PostgreSQL, Redis), which no in-process clock sees."""

from __future__ import annotations

import os


def cpu_by_name(names: tuple[str, ...]) -> dict[str, float]:
    """Seconds on a CPU so far of every process named in ``names``, by name: each one's own time
    to the nanosecond (``/proc/PID/schedstat``), and what its exited children spent (``stat``'s
    cutime and cstime, in clock ticks: PostgreSQL's backends of closed connections, counted in the
    postmaster's once it has reaped them). Compare two readings around the work."""
    totals = dict.fromkeys(names, 0.0)
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat:
                text = stat.read()
            name = text[text.index("(") + 1 : text.rindex(")")]
            if name not in totals:
                continue
            with open(f"/proc/{entry.name}/schedstat") as schedstat:
                own = int(schedstat.read().split()[0]) / 1e9
        except OSError:  # gone since the listing
            continue
        children = text.rsplit(")", 1)[1].split()[13:15]
        totals[name] += own + sum(int(ticks) for ticks in children) / tick
    return totals
