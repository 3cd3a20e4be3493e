#!/usr/bin/env python3
"""Start-up of one-shot commands, paired with a hello-world process (issue 34).

usage: benches/startup.py [ROUNDS] [BIN…]     (defaults: 400, target/release/calimcp)

Builds a Rust hello-world (`rustc -O`, as any Rust binary is linked by
default), then runs ROUNDS rounds; each round runs hello-world and every
calimcp command once (`--version`; `--version --quiet`, the same answer
through clap's parse; `describe`, `schema` and `tools --json` on the
101-method fixture), in a fresh random order, so load from other processes
falls on all of them alike. Each run is one posix_spawn + waitpid with stdout
and stderr on /dev/null, timed with a monotonic clock (the spawner's own cost
is in every figure, hello-world's too). Prints, per command, the median and
p90 in ms and the ratio of its median to hello-world's median, and the load
average before and after. Every binary, hello-world's too, runs from a
fresh copy in a temporary directory (see fresh_copy). The 5,000-method `tools --json`
(benches/gen_manifest.py 5000) runs in the same rounds, every 10th round.
Next to the wall time, the CPU time the child used (user + system, from
wait4's rusage, exec and the dynamic loader included): time spent waiting
for a core on a busy machine is not in it, so it moves far less with the load.
Several BINs (a build before and after a change) run in the same rounds,
each command of each binary once per round, so they compare under the same
load. `CALIMCP_OFFLINE=1` is set, and HOME/state point at an empty directory, so no
node and no profile file is involved.
"""
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "..", "shared", "fixtures", "abi", "mero-mcp-scaffolding-e2e.json")


def spawn_ns(argv, env, devnull):
    """The run's wall time and the CPU time (user + system) the child used, in ns."""
    start = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, usage = os.wait4(pid, 0)
    took = time.perf_counter_ns() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} exited with {os.waitstatus_to_exitcode(status)}")
    return took, round((usage.ru_utime + usage.ru_stime) * 1e9)


def fresh_copy(src, dst):
    """Runs a binary from a fresh copy, as `cargo install` places it. How a
    file came into the page cache changes how many page faults mapping it
    takes: the same binary measured 1.99x hello-world from a fresh copy and
    2.20x from a copy made two hours and several builds earlier, part of it
    evicted meanwhile (BENCHMARKS.md, issue 34). Copying every binary (and
    hello-world) just before the run puts them all in the same state."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(src, "rb") as i, open(dst, "wb") as o:
        while chunk := i.read(1 << 20):
            o.write(chunk)
    os.chmod(dst, 0o755)
    return dst


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    binaries = [os.path.abspath(b) for b in sys.argv[2:]] or [os.path.join(ROOT, "target/release/calimcp")]
    out = os.path.join(ROOT, "target", "bench")
    os.makedirs(out, exist_ok=True)
    hello = os.path.join(out, "hello")
    with open(os.path.join(out, "hello.rs"), "w") as f:
        f.write('fn main() { println!("hello"); }\n')
    subprocess.run(["rustc", "-O", "-o", hello, os.path.join(out, "hello.rs")], check=True)
    m5000 = os.path.join(out, "m5000.json")
    if not os.path.exists(m5000):
        with open(m5000, "w") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "benches/gen_manifest.py"), "5000"], stdout=f, check=True)
    if not os.path.exists(FIXTURE):
        sys.exit(f"{FIXTURE} is missing")
    home = tempfile.mkdtemp(prefix="calimcp-startup-")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
           "CALIMCP_STATE_DIR": os.path.join(home, "state"), "CALIMCP_OFFLINE": "1"}
    hello = fresh_copy(hello, os.path.join(home, "bin", "hello"))
    commands = {"hello-world": [hello]}
    big = {}
    for i, binary in enumerate(binaries):
        tag = f"{os.path.basename(binary)}: " if len(binaries) > 1 else ""
        binary = fresh_copy(binary, os.path.join(home, "bin", str(i), os.path.basename(binary)))
        commands[tag + "--version"] = [binary, "--version"]
        # The same answer through clap's parse (`--version` alone skips it).
        commands[tag + "--version --quiet"] = [binary, "--version", "--quiet"]
        commands[tag + "describe"] = [binary, "describe", FIXTURE]
        commands[tag + "schema"] = [binary, "schema", FIXTURE]
        commands[tag + "tools --json"] = [binary, "tools", FIXTURE, "--json"]
        big[tag + "tools --json, 5,000 methods"] = [binary, "tools", m5000, "--json", "--quiet"]
    times = {name: [] for name in list(commands) + list(big)}
    cpu = {name: [] for name in times}
    devnull = os.open(os.devnull, os.O_WRONLY)
    load_before = os.getloadavg()
    for argv in list(commands.values()) + list(big.values()):  # warm the page cache
        for _ in range(3):
            spawn_ns(argv, env, devnull)
    for r in range(rounds):
        order = list(commands.items())
        if r % 10 == 0:
            order.extend(big.items())
        random.shuffle(order)
        for name, argv in order:
            wall, used = spawn_ns(argv, env, devnull)
            times[name].append(wall)
            cpu[name].append(used)
    load_after = os.getloadavg()
    base = statistics.median(times["hello-world"])
    print("binaries:", ", ".join(binaries))
    print(f"{rounds} interleaved rounds; load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
          f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}; {os.cpu_count()} cores")
    cpu_base = statistics.median(cpu["hello-world"])
    print("| command | runs | median ms | p90 ms | × hello-world (medians) | CPU ms (median) | CPU × hello-world |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, ts in times.items():
        ts.sort()
        med = statistics.median(ts)
        p90 = ts[min(len(ts) - 1, int(len(ts) * 0.9))]
        used = statistics.median(cpu[name])
        print(f"| {name} | {len(ts)} | {med / 1e6:.2f} | {p90 / 1e6:.2f} | {med / base:.2f} "
              f"| {used / 1e6:.3f} | {used / cpu_base:.2f} |")


if __name__ == "__main__":
    main()
