"""The Python client's side of the failover benchmark (bench/python-probe.ts drives it).

Usage: failover_probe.py ENDPOINT... ; with clients/python on PYTHONPATH.
Opens one session, prints "ready". For each "probe" line on stdin it sends acquire+release
cycles of its own lock until one acquire sent after the line succeeds, and prints
"ok MS" (from the line's arrival to that acquire's answer) or "none" after 30 s.
"""
import sys
import time

from palisade import PalisadeClient

MAX_WAIT_S = 30.0


def probe(session, lock: str) -> str:
    start = time.monotonic()
    while time.monotonic() - start < MAX_WAIT_S:
        try:
            result = session.acquire(lock, wait=0.0)
        except Exception:  # any failure of one attempt: the next acquire tries again
            time.sleep(0.01)
            continue
        done = time.monotonic()
        if result.acquired and result.token is not None:
            try:
                session.release(lock, result.token)
            except Exception:  # the grant ends with the session; the figure is the acquire's
                pass
            return f"ok {(done - start) * 1000:.1f}"
    return "none"


def main() -> None:
    endpoints = sys.argv[1:]
    with PalisadeClient(endpoints, client_name="failover-bench-py", retry_budget=30.0) as client:
        session = client.open_session(ttl=10.0)
        print("ready", flush=True)
        for line in sys.stdin:
            if line.strip() == "probe":
                print(probe(session, "bench/failover/python-probe"), flush=True)


if __name__ == "__main__":
    main()
