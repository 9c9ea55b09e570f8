"""`python -m tests [pytest arguments]`: the test suite on a fresh machine.

Installs through apt what pip cannot (tests/machine.py) when it is missing and this runs as
root, or says the one command to run when not; then runs pytest with the arguments given, on
four workers a core unless they say how many."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.machine import missing

WORKERS_A_CORE = 4
MAX_WORKERS = 32  # each may run a PostgreSQL server, a bot process or Chromium


def install(packages: list[str]) -> bool:
    """Install ``packages`` with apt as root (True), or tell the user how (False)."""
    if os.geteuid() != 0:
        print(f"The tests need {' and '.join(packages)}. Install "
              f"{'it' if len(packages) == 1 else 'them'} and run python -m tests again:\n"
              f"  sudo apt-get update && sudo apt-get install -y {' '.join(packages)}",
              file=sys.stderr)
        return False
    print(f"Installing {' and '.join(packages)} (apt-get)", file=sys.stderr)
    env = os.environ | {"DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", *packages], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    return True


def workers(argv: list[str]) -> list[str]:
    """Four test processes a core this process may run on (at most ``MAX_WORKERS``) unless
    the arguments say how many: the end-to-end tests mostly wait (on Telegram's budgets, the
    bot's timers, other processes)."""
    if any(a.startswith(("-n", "--numprocesses")) for a in argv):
        return []
    return ["-n", str(min(MAX_WORKERS, WORKERS_A_CORE * len(os.sched_getaffinity(0))))]


def main(argv: list[str]) -> int:
    need = missing()
    if need and not install(need):
        return 1
    os.execv(sys.executable, [sys.executable, "-m", "pytest", *workers(argv), *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
