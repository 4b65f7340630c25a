#!/usr/bin/env bash
# tools/bench/summarize.py on a fixed CSV: the per-size table with the
# 200 Mbit/s bandwidth bound, the kind x size grid and the hand-written
# comparison, and --ab of two after runs over the sample (8 B ring: the
# median of 0.88 and 1.32 over 1.76), exactly as
# test/bench/summarize-expected.md; a bad --rate exits 1 naming it.
#   summarize.sh SOURCE_DIR
set -euo pipefail
src=$1
summarize=$src/tools/bench/summarize.py
sample=$src/test/bench/summarize-sample.csv
got=$({ "$summarize" "$sample" --rate 200mbit; echo "--"; "$summarize" "$sample" --grid
        echo "--"; "$summarize" "$sample" --hand
        echo "--"; "$summarize" "$src/test/bench/summarize-after1.csv" "$src/test/bench/summarize-after2.csv" \
          --ab --before "$sample"; })
diff <(echo "$got") "$src/test/bench/summarize-expected.md" || { echo "summarize: output differs"; exit 1; }
if err=$("$summarize" "$sample" --rate 2xbit 2>&1); then echo "summarize: --rate 2xbit accepted"; exit 1; fi
[ "$err" = "summarize.py: error: --rate must look like 200mbit or 1gbit, got '2xbit'" ] ||
  { echo "summarize: bad --rate gave '$err'"; exit 1; }
echo "summarize: PASS"
