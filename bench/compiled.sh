#!/usr/bin/env bash
# The rules core compiled with mypyc (setup.py, POKERTABLE_COMPILE=1), built, checked and measured or
# tested apart from this tree, which stays pure Python: a scratch copy of the tree (uncommitted edits
# included) installed editable into a FRESH venv that sees no system packages, as the appliance's
# installer does it (its dependencies come from the package index, so a build that needs something
# only this machine has installed fails here as it would on a new Pi). The modules imported are
# checked to be the compiled ones (python -m firmware_py.compiled) before anything runs. Prints how
# long the install and the build took.
#
#   bench/compiled.sh                      # python -m bench --only replay --quick, compiled
#   bench/compiled.sh bench ARGS...        # python -m bench ARGS, compiled
#   bench/compiled.sh test [PYTEST ARGS]   # the rules, replay and session-reader tests, compiled
#
# PYTHON picks the interpreter the venv is made from (python3 by default). Without a C compiler or
# the Python headers it says so and exits 0, unless COMPILED_REQUIRED=1 (CI sets it), when it fails.
# CI runs `test` as a step: about 90 s here, 40-60 s of it the install and the build.
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
skip() {
    if [[ "${COMPILED_REQUIRED:-}" == 1 ]]; then echo "compiled core: FAILED, $1" >&2; exit 1; fi
    echo "compiled core: SKIPPED, $1"; exit 0
}
command -v "$compiler" >/dev/null || skip "no C compiler ($compiler) to build it with"
[[ -f "$headers" ]] || skip "no Python headers ($headers; Debian: python3-dev)"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/src"
(cd "$root" && git ls-files -z --cached --others --exclude-standard \
    | tar --null --ignore-failed-read -T - -cf -) | tar -xf - -C "$scratch/src"
find "$scratch/src" -name '*.so' -delete  # only what this build makes
[[ ! -d "$root/bench/data" ]] || cp -a "$root/bench/data" "$scratch/src/bench/"  # the same session files
# The public hand histories the replay benchmark compares with pokerkit: shared/ beside the tree or a parent.
for dir in "$root" "$(dirname "$root")" "$(dirname "$(dirname "$root")")"; do
    if [[ -z "${BENCH_PUBLIC_PHH:-}" && -d "$dir/../shared/phh/data" ]]; then
        BENCH_PUBLIC_PHH="$(cd "$dir/../shared/phh/data" && pwd)"; export BENCH_PUBLIC_PHH
    fi
done

# A venv without the system's packages; pip builds in its own isolated environment with what setup.py
# asks for (mypy, orjson), then installs the package's dependencies into the venv.
"$python" -m venv "$scratch/venv"
venv_python="$scratch/venv/bin/python"
start=$SECONDS
POKERTABLE_COMPILE=1 "$venv_python" -m pip install -q --disable-pip-version-check -e "$scratch/src"
echo "compiled core: installed and built in a fresh venv in $((SECONDS - start)) s"

cd "$scratch/src"
export PYTHONPATH="$scratch/src"  # for the subprocesses the replay tests start
"$venv_python" -m firmware_py.compiled | tail -n 1  # exits 1, naming them, if any module is not compiled
if [[ "$mode" == bench ]]; then
    "$venv_python" -m bench "$@"
    mkdir -p "$root/bench/results"
    cp bench/results/bench.json "$root/bench/results/bench-compiled.json"
else
    "$venv_python" -m pip install -q --disable-pip-version-check "pytest>=8" "pytest-xdist>=3.5" "hypothesis>=6"
    "$venv_python" -m pytest -p no:cacheprovider tests/rules tests/test_replay.py tests/test_session_chips.py \
        tests/test_session_schema.py tests/fuzz/test_fuzz_inputs.py "$@"
fi
