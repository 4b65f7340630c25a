#!/usr/bin/env bash
# Fails if any source assigns a temporary to a z3::expr (a move assignment).
# Z3 4.8.12's z3++.h leaks the old term there (see reassign() in
# passes/lib/verify/SlotProgram.h), so the sources that use Z3 are compiled
# syntax-only against a copy of the header in which expr's move assignment is
# deleted: every such assignment is then a compile error naming its line.
# Usage: tools/check-z3-moves.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
header=$(echo '#include <z3++.h>' | c++ -x c++ -E -H - 2>&1 >/dev/null |
         awk '/z3\+\+\.h$/ && !found { print $2; found = 1 }')
guard=$(mktemp -d)
trap 'rm -rf "$guard"' EXIT
# Declaring the move assignment deleted (and the copies defaulted, which a
# declared move would otherwise suppress) turns each use into an error.
sed '/^    class expr : public ast {$/,/^    public:$/ s/^    public:$/    public:\n        expr(expr const \&) = default;\n        expr(expr \&\&) = default;\n        expr \& operator=(expr const \&) = default;\n        expr \& operator=(expr \&\&) = delete;/' \
  "$header" > "$guard/z3++.h"
grep -q 'operator=(expr &&) = delete' "$guard/z3++.h" ||
  { echo "check-z3-moves: could not patch $header" >&2; exit 2; }
python3 - "$build/compile_commands.json" "$guard" <<'PY' > "$guard/commands"
import json, shlex, sys
guard = sys.argv[2]
for c in json.load(open(sys.argv[1])):
    if 'z3' not in open(c['file']).read():
        continue
    args = shlex.split(c['command'])
    out = [a for i, a in enumerate(args)
           if a != '-o' and (i == 0 or args[i - 1] != '-o')]
    out[1:1] = ['-I' + guard, '-fsyntax-only']
    print('cd ' + shlex.quote(c['directory']) + ' && ' + shlex.join(out))
PY
# One compile a source, a core each (xargs -P).
check_one() {
  local errors
  if ! errors=$(bash -c "$1" 2>&1); then
    echo "$errors" | grep -E 'error:' >&2 || echo "$errors" >&2
    return 1
  fi
}
export -f check_one
status=0
xargs -P "$(nproc)" -d '\n' -I{} bash -c 'check_one "$1"' _ {} < "$guard/commands" || status=1
if [ "$status" -ne 0 ]; then
  echo "check-z3-moves: assign z3::expr through reassign(), not '='" >&2
else
  echo "check-z3-moves: no move assignment of z3::expr in $(wc -l < "$guard/commands") files"
fi
exit $status
