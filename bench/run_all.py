"""Run the small default version of every benchmark (`make bench`).

    python bench/run_all.py            # retrieval, pruning, build, scale, load, ingest_speed with their small defaults
    python bench/run_all.py --only pruning,scale
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SMALL = {
    "retrieval": ["--n", "100", "--vf2-n", "10"],
    "pruning": ["--n", "100"],
    "build": ["--graphs", "mini"],
    "scale": ["--entities", "20000", "--queries", "100", "--gnn-epochs", "20"],
    "load": ["--n", "100", "--background-n", "300", "--warmup-s", "10"],
    "ingest_speed": ["--limit", "30"],
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default=",".join(SMALL))
    ap.add_argument("--defaults", action="store_true", help="use each script's own defaults instead of the smaller set")
    args = ap.parse_args(argv)
    failed = []
    for name in args.only.split(","):
        cmd = [sys.executable, str(HERE / f"{name}.py")] + ([] if args.defaults else SMALL[name])
        print(f"\n===== {' '.join(cmd[1:])} =====", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.call(cmd)
        print(f"===== {name}: exit {rc}, {time.perf_counter() - t0:.0f}s =====", flush=True)
        if rc:
            failed.append(name)
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
