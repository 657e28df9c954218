#!/usr/bin/env bash
# Debian packages the test suite needs (none yet beyond Node and npm).
set -euo pipefail
exit 0
