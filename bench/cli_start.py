"""Cold start of a one-shot `python -m sgrag ask`: wall time of fresh processes, beside `python -c pass` and
`python -c "import torch"` run in the same rounds (issue 25 item 6: under 2 s on FB15k-237).

    .venv/bin/python bench/cli_start.py --workspace /work/ws/fb --rounds 7

Each round runs every command once, in turn, so a busy machine slows them alike; the table gives min and
median wall time per command, each median as a ratio of `python -c pass`, and the median CPU time (user +
system): what the wall time is on a quiet machine for these single-threaded commands. The index must have its query-side keys
(``dominance.npz``, written by builds since issue 25): an older index falls back to torch for them.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
QUESTION = "Which films did Steven Spielberg direct?"


def wall(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one fresh process: on a busy machine the CPU time is what the
    wall time would be on a quiet one (the commands are single-threaded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    spent = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()[-300:]}")
    return spent, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workspace", "-w", required=True)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--question", default=QUESTION)
    args = ap.parse_args()
    py = sys.executable
    version = Path(args.workspace) / "versions"
    keys = any(version.glob("*/dominance.npz")) if version.exists() else False
    commands = {
        "python -c pass": [py, "-c", "pass"],
        'python -c "import torch"': [py, "-c", "import torch"],
        "python -m sgrag ask": [py, "-m", "sgrag", "-q", "ask", "-w", args.workspace, args.question],
    }
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    wall(commands["python -m sgrag ask"])  # warm the page cache: a cold disk is not what this measures
    for _ in range(args.rounds):
        for name, cmd in commands.items():
            times[name].append(wall(cmd))
    base = statistics.median(w for w, _ in times["python -c pass"])
    torch_cpu = statistics.median(c for _, c in times['python -c "import torch"'])
    load = os.getloadavg()
    print(f"workspace {args.workspace} (query-side keys saved: {keys}); {args.rounds} rounds; "
          f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} cores")
    print(f"{'command':<28} {'wall min s':>10} {'wall median s':>13} {'/ pass':>8} {'CPU median s':>12} "
          f"{'CPU / import torch':>18}")
    for name, ts in times.items():
        walls, cpus = [w for w, _ in ts], [c for _, c in ts]
        med = statistics.median(walls)
        print(f"{name:<28} {min(walls):10.2f} {med:13.2f} {med / base:7.1f}x {statistics.median(cpus):12.2f} "
              f"{statistics.median(cpus) / torch_cpu:17.2f}x")


if __name__ == "__main__":
    main()
