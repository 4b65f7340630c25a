#!/usr/bin/env bash
# Translation validation at every P the issue names (docs/testing.md): each
# example the runtime runs through its executor, on P in-process ranks,
# recorded, proven, compared with the proven expansion and with a
# sequential reference. CI runs P = 1..32, 127 and 256 (ctest
# recorded-execution); this adds 33..64 and the large P. Builds if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/bin/collc-recorded-execution ] || tools/build.sh
exec build/bin/collc-recorded-execution examples 1..64 97 127 128 243 256 729 1000 1024 "$@"
