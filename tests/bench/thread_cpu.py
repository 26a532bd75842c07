#!/usr/bin/env python3
"""Runs a command and prints the CPU time of each of its threads.

usage: thread_cpu.py [--interval S] -- COMMAND [ARGS...]

Samples /proc/PID/task/*/stat every --interval seconds (default 0.02) and
keeps each thread's last utime + stime, so a thread that ends before the
process is still counted up to its last sample (at most one interval
short). Prints one line per thread name (threads of the same name summed:
rudpscope's Lua lanes are rudp-lua-N, its SQLite writer rudp-store, the
calling thread the program's name), then the total, the wall time and the
busiest thread's share of the total. The command's own output goes where it
would; the table goes to stderr. Exit status: the command's.
"""
import os
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def sample(pid, seen):
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except (FileNotFoundError, ProcessLookupError):
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        cpu = (int(fields[11]) + int(fields[12])) / TICK  # utime, stime
        seen[tid] = (name, cpu)


def main():
    args = sys.argv[1:]
    interval = 0.02
    if args[:1] == ["--interval"]:
        interval = float(args[1])
        args = args[2:]
    if args[:1] != ["--"] or len(args) < 2:
        sys.exit("usage: thread_cpu.py [--interval S] -- COMMAND [ARGS...]")
    start = time.monotonic()
    proc = subprocess.Popen(args[1:])
    seen = {}
    while proc.poll() is None:
        sample(proc.pid, seen)
        time.sleep(interval)
    wall = time.monotonic() - start
    by_name = {}
    for name, cpu in seen.values():
        by_name[name] = by_name.get(name, 0.0) + cpu
    total = sum(by_name.values())
    busiest = max(seen.values(), key=lambda v: v[1], default=("", 0.0))
    for name, cpu in sorted(by_name.items(), key=lambda kv: -kv[1]):
        share = cpu / total if total else 0.0
        print(f"thread {name:<16} {cpu:8.2f} s CPU  {100 * share:5.1f} %", file=sys.stderr)
    print(f"threads: {len(seen)}, total {total:.2f} s CPU in {wall:.2f} s wall; busiest thread "
          f"{busiest[0]} {100 * (busiest[1] / total if total else 0):.1f} % of the CPU time", file=sys.stderr)
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
