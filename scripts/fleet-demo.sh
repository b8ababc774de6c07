#!/usr/bin/env bash
# cluster_fleet over loopback doubles, as issue 10's closing note shows it: the `fleet_doubles`
# program serves an in-memory API server (the testdata GPU snapshot) over TLS with bearer tokens
# and writes a registry of six entries: three pointing at it (bj-prod, sh-prod, bj-dev), a dead
# port, a token the server does not know, and a port that accepts and never answers. Then
# `cluster_fleet` probes them all at once (the table, then where a task asking for env=prod and 2 A100 GPUs would go), and the doubles
# are stopped.
#
# Usage: scripts/fleet-demo.sh [TIMEOUT_SECS]   (per-cluster timeout, default 2)
# Files stay in $CUBE_FLEET_DEMO_DIR (default: a new temporary directory).
set -euo pipefail
timeout=${1:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${CUBE_FLEET_DEMO_DIR:-$(mktemp -d)}
cd "$root"
cargo build -q -p cube-examples --example fleet_doubles --example cluster_fleet
bin=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/debug/examples
"$bin/fleet_doubles" --dir "$work" --lifetime 120 > "$work/doubles.out" &
doubles=$!
trap 'kill "$doubles" 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$work/doubles.out" ] && break; sleep 0.1; done
registry=$(sed -n 's/^registry: //p' "$work/doubles.out")
[ -n "$registry" ] || { echo "fleet_doubles did not start" >&2; exit 1; }
cmd=("$bin/cluster_fleet" --registry "$registry" --timeout "$timeout" --pool-label cube.example/pool)
echo "\$ cluster_fleet --registry $registry --timeout $timeout --pool-label cube.example/pool"
start=$(date +%s%N)
set +e
"${cmd[@]}"
code=$?
set -e
end=$(date +%s%N)
echo "exit code $code; the whole process took $(( (end - start) / 1000000 )) ms with a per-cluster timeout of ${timeout} s"
echo
echo "\$ cluster_fleet --registry $registry --timeout $timeout --place --selector env=prod --gpus nvidia.com/gpu=2 --gpu-kind nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB (placement part)"
set +e
"${cmd[@]}" --place --selector env=prod --gpus nvidia.com/gpu=2 --gpu-kind nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB | sed -n '/^placement of/,$p'
set -e
