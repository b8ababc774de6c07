#!/usr/bin/env bash
# The programs' whole paths as whole processes, against a baseline process in the same run
# (issue 12). On a generated `kubectl get nodes,pods -A -o json` dump of 5,000 nodes and 150,000
# pods (about 520 MB; the generator of `cargo bench -p cube-model --bench snapshot`), it measures
# elapsed (wall) time, CPU time (user + system) and peak RSS (GNU time) of:
#   baseline  the dump deserialized into k8s-openapi Node/Pod types (read whole, typed serde)
#   diagnose  cluster_diagnose --snapshot DUMP --output json   (the main job)
#   pod_admit pod_admit --snapshot DUMP --pod <1,000-replica Deployment>  (default replica bound)
# and prints each with its ratios to the baseline (wall, CPU and peak RSS), and the machine load.
# Every process here is single-threaded: wall and CPU time differ only by waiting (I/O, a busy
# machine), and the CPU ratio is the one that does not depend on other load.
#
# Usage: scripts/whole-path.sh [SCALE]   (SCALE 1 = full size, 0.1 = a tenth; default 1)
# The dump and results stay in $CUBE_WHOLE_PATH_DIR (default: a new temporary directory).
set -euo pipefail
scale=${1:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${CUBE_WHOLE_PATH_DIR:-$(mktemp -d)}
mkdir -p "$work"
cd "$root"
cargo build --release -q -p cube-examples --example cluster_diagnose --example pod_admit
bench=$(cargo bench -q -p cube-model --bench snapshot --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "snapshot":
        print(m["executable"])' | tail -n 1)
dump="$work/dump.json"
CUBE_BENCH_SCALE=$scale CUBE_BENCH_WRITE="$dump" "$bench"
cat > "$work/deployment.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: train, namespace: team-7}
spec:
  replicas: 1000
  template:
    spec:
      tolerations: [{key: nvidia.com/gpu, operator: Exists}]
      containers:
      - name: main
        image: ml/train:2.4.1
        resources:
          requests: {cpu: "2", memory: 8Gi, nvidia.com/gpu: "1"}
          limits: {cpu: "2", memory: 8Gi, nvidia.com/gpu: "1"}
YAML
# one measured process: prints "wall_seconds cpu_seconds peak_kib exit_status"
measure() {
  local status=0
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" || status=$?
  read -r wall user sys peak <<<"$(tail -n 1 "$work/time")"
  echo "$wall $(python3 -c "print(f'{$user + $sys:.2f}')") $peak $status"
}
echo "dump: $(du -m "$dump" | cut -f1) MiB at scale $scale; load: $(uptime | sed 's/.*load average: //')"
read -r bt bc bm bs <<<"$(CUBE_BENCH_READ_K8S="$dump" measure "$bench")"
read -r dt dc dm ds <<<"$(measure target/release/examples/cluster_diagnose --snapshot "$dump" --output json)"
read -r pt pc pm ps <<<"$(measure target/release/examples/pod_admit --snapshot "$dump" --pod "$work/deployment.yaml" --output json)"
ratio() { python3 -c "print(f'{$1 / max($2, 1e-9):.2f}')"; }
printf '%-10s %8s %8s %9s %7s %7s %7s %s\n' process wall_s cpu_s peak_MiB wall_x cpu_x rss_x exit
printf '%-10s %8s %8s %9s %7s %7s %7s %s\n' baseline "$bt" "$bc" $((bm / 1024)) 1.00 1.00 1.00 "$bs"
printf '%-10s %8s %8s %9s %7s %7s %7s %s\n' diagnose "$dt" "$dc" $((dm / 1024)) "$(ratio "$dt" "$bt")" "$(ratio "$dc" "$bc")" "$(ratio "$dm" "$bm")" "$ds"
printf '%-10s %8s %8s %9s %7s %7s %7s %s\n' pod_admit "$pt" "$pc" $((pm / 1024)) "$(ratio "$pt" "$bt")" "$(ratio "$pc" "$bc")" "$(ratio "$pm" "$bm")" "$ps"
echo "load after: $(uptime | sed 's/.*load average: //'); files in $work"
