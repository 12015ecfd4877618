#!/usr/bin/env bash
# The Python package's one abi3 wheel, built once, installed and tested under every CPython
# from 3.9 on that pyenv (or PATH) has: `scripts/test-python-versions.sh [VERSION ...]`
# (default: every 3.9+ found). Needs the release CLI for the tests that compare with it:
# `cargo build --release --bin perfect-play` first.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
versions=("$@")
if [ ${#versions[@]} -eq 0 ] && command -v pyenv >/dev/null; then
  mapfile -t versions < <(pyenv versions --bare | grep -E '^3\.(9|[1-9][0-9])\.')
fi
if [ ${#versions[@]} -eq 0 ]; then
  echo "no CPython 3.9+ found through pyenv; name the versions" >&2
  exit 2
fi
CARGO_TARGET_DIR="$PWD/target" python3 -m pip wheel --quiet --no-deps -w "$work/wheel" ./crates/perfect-play-py
wheel="$(ls "$work"/wheel/*.whl)"
echo "wheel: $(basename "$wheel")"
for version in "${versions[@]}"; do
  python="$(pyenv root 2>/dev/null)/versions/$version/bin/python3"
  [ -x "$python" ] || python="$(command -v "python$version")"
  "$python" -m venv "$work/venv-$version"
  "$work/venv-$version/bin/pip" install --quiet --disable-pip-version-check "$wheel" pytest numpy
  # OpenSpiel has no wheel for every version: its tests skip without it.
  "$work/venv-$version/bin/pip" install --quiet --disable-pip-version-check open_spiel 2>/dev/null \
    || echo "CPython $version: no open_spiel wheel, its tests skip"
  echo "CPython $version:"
  PERFECT_PLAY_BIN="$PWD/target/release/perfect-play" \
    "$work/venv-$version/bin/python" -m pytest -q -p no:cacheprovider crates/perfect-play-py/tests
done
