"""What a cluster test asks of the process that runs the cluster.

test/integration/python-client.test.ts starts a three-node cluster, runs one test of this
package in a child process with the endpoints in PALISADE_ENDPOINTS, and answers requests
that this process cannot carry out itself (kill the leader, pause this very process): a
request is one line on stdout, "@palisade-control VERB ARGS...", and its answer one line
on stdin, "ok WORDS..." or "error TEXT".
"""
from __future__ import annotations

import os
import sys
import threading
from typing import List

PREFIX = "@palisade-control"
_lock = threading.Lock()


def endpoints() -> List[str]:
    value = os.environ.get("PALISADE_ENDPOINTS", "")
    if value == "" or os.environ.get("PALISADE_CONTROL") != "stdio":
        raise RuntimeError(
            "cluster tests run under test/integration/python-client.test.ts "
            "(npx vitest run test/integration/python-client.test.ts), which sets PALISADE_ENDPOINTS and PALISADE_CONTROL"
        )
    return value.split(",")


def ask(verb: str, *args: str) -> List[str]:
    """Sends one request and waits for its answer; raises if the runner answered an error."""
    with _lock:
        sys.stdout.write(" ".join([PREFIX, verb, *args]) + "\n")
        sys.stdout.flush()
        line = sys.stdin.readline()
    words = line.split()
    if not words:
        raise RuntimeError(f"no answer to {verb} (the runner closed stdin)")
    if words[0] != "ok":
        raise RuntimeError(f"{verb} failed: {line.strip()}")
    return words[1:]
