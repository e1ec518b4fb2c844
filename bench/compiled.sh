#!/usr/bin/env bash
# The rules core compiled with mypyc (setup.py, POKERTABLE_COMPILE=1), measured or tested apart from
# this tree, which stays pure Python: a wheel built from a scratch copy of the tree (uncommitted edits
# included), its compiled modules put beside the copy's sources as the appliance's editable install
# has them (the package finds its config/ from its source tree), and run from the copy. Prints how
# long the build took.
#
#   bench/compiled.sh                      # python -m bench --only replay --quick, compiled
#   bench/compiled.sh bench ARGS...        # python -m bench ARGS, compiled
#   bench/compiled.sh test [PYTEST ARGS]   # the rules, replay and session-reader tests, compiled
#
# PYTHON picks the interpreter (python3 by default). Without a C compiler or the Python headers it
# says so and exits 0 (CI runs `test` as a step: about 70 s here, 45-55 s of it the build).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
mode="${1:-bench}"
shift || true
case "$mode" in
    bench) [[ $# -gt 0 ]] || set -- --only replay --quick ;;
    test) ;;
    *) echo "usage: $0 [bench ARGS... | test PYTEST-ARGS...]" >&2; exit 2 ;;
esac

compiler="$("$python" -c 'import sysconfig; print((sysconfig.get_config_var("CC") or "cc").split()[0])')"
headers="$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h"
if ! command -v "$compiler" >/dev/null; then
    echo "compiled core: SKIPPED, no C compiler ($compiler) to build it with"; exit 0
fi
if [[ ! -f "$headers" ]]; then
    echo "compiled core: SKIPPED, no Python headers ($headers; Debian: python3-dev)"; exit 0
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/src" "$scratch/site"
(cd "$root" && git ls-files -z --cached --others --exclude-standard \
    | tar --null --ignore-failed-read -T - -cf -) | tar -xf - -C "$scratch/src"
[[ ! -d "$root/bench/data" ]] || cp -a "$root/bench/data" "$scratch/src/bench/"  # the same session file

# In pip's own build environment, with setuptools and mypy (setup.py asks for it) as it fetches them.
start=$SECONDS
POKERTABLE_COMPILE=1 "$python" -m pip wheel -q --no-deps -w "$scratch/wheel" "$scratch/src"
echo "compiled core: built in $((SECONDS - start)) s"
"$python" -m pip install -q --no-deps --target "$scratch/site" "$scratch"/wheel/*.whl
(cd "$scratch/site" && find . -name '*.so' -exec cp --parents {} "$scratch/src/" \;)

cd "$scratch/src"
export PYTHONPATH="$scratch/src"  # for the subprocesses the replay tests start
"$python" -c '
import firmware_py.core.engine as engine
assert engine.__file__.endswith(".so"), f"not the compiled core: {engine.__file__}"
print("compiled core:", engine.__file__)'
if [[ "$mode" == bench ]]; then
    "$python" -m bench "$@"
    mkdir -p "$root/bench/results"
    cp bench/results/bench.json "$root/bench/results/bench-compiled.json"
else
    "$python" -m pytest -p no:cacheprovider tests/rules tests/test_replay.py tests/test_session_chips.py \
        tests/fuzz/test_fuzz_inputs.py "$@"
fi
