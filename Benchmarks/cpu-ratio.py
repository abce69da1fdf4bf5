#!/usr/bin/env python3
"""CPU time of two commands, run in turn (interleaved, so both see the same machine), from the
kernel's own accounting (user plus system time, as wait4 reports it, to the microsecond), with
the medians and their ratio: for pairs too close for /usr/bin/time's hundredths.

    python3 Benchmarks/cpu-ratio.py 21 cuekit validate big.vtt -- cuekit inspect --stats big.vtt
"""
import os
import statistics
import sys


def run(command):
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.execvp(command[0], command)
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"cpu-ratio.py: {' '.join(command)} failed")
    return usage.ru_utime + usage.ru_stime


def main():
    if len(sys.argv) < 5 or "--" not in sys.argv[2:]:
        sys.exit(__doc__)
    runs = int(sys.argv[1])
    split = sys.argv.index("--", 2)
    first, second = sys.argv[2:split], sys.argv[split + 1:]
    times = ([], [])
    for _ in range(runs):
        times[0].append(run(first))
        times[1].append(run(second))
    a, b = statistics.median(times[0]), statistics.median(times[1])
    print(f"{' '.join(first)}: {a:.3f} s CPU (median of {runs})")
    print(f"{' '.join(second)}: {b:.3f} s CPU (median of {runs})")
    print(f"ratio, second to first: {b / a:.3f}")


main()
