#!/usr/bin/env bash
# pod_admit at scale as whole processes (issue 12): Deployments of REPLICAS replicas (default
# 1,000) over the generated 5,000-node / 150,000-pod dump of `cargo bench -p cube-model --bench
# snapshot` (about 500 MiB at SCALE 1), in release, with `--timings` so the what-if is told
# apart from loading the dump:
#   gpu  1 GPU, 2 cpu, 8Gi each (the whole-path.sh Deployment): the dump's GPUs are all taken,
#        so every replica is Pending (fit, preemption on every node, the message);
#   cpu  2 cpu, 8Gi each: every replica is placed (fit and binding, replica after replica).
# Baseline in the same run: the same pod_admit on the same dump with a single Pod of the gpu
# template (the load, one index build, one fit with preemption), so the ratios say what the
# replicas themselves cost.
#
# Usage: scripts/pod-admit-scale.sh [SCALE] [REPLICAS]   (SCALE 1 = full size; default 1 1000)
# The dump and outputs stay in $CUBE_POD_ADMIT_DIR (default: a new temporary directory; an
# existing dump.json of the same scale there is reused).
set -euo pipefail
scale=${1:-1}
replicas=${2:-1000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${CUBE_POD_ADMIT_DIR:-$(mktemp -d)}
mkdir -p "$work"
cd "$root"
cargo build --release -q -p cube-examples --example pod_admit
dump="$work/dump.json"
if [[ ! -s "$dump" || "$(cat "$work/dump.scale" 2>/dev/null)" != "$scale" ]]; then
  bench=$(cargo bench -q -p cube-model --bench snapshot --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "snapshot":
        print(m["executable"])' | tail -n 1)
  CUBE_BENCH_SCALE=$scale CUBE_BENCH_WRITE="$dump" "$bench"
  echo "$scale" >"$work/dump.scale"
fi
template='      tolerations: [{key: nvidia.com/gpu, operator: Exists}]
      containers:
      - name: main
        image: ml/train:2.4.1
        resources:
          requests: {cpu: "2", memory: 8Gi, nvidia.com/gpu: "1"}
          limits: {cpu: "2", memory: 8Gi, nvidia.com/gpu: "1"}'
cat >"$work/deployment.yaml" <<YAML
apiVersion: apps/v1
kind: Deployment
metadata: {name: train, namespace: team-7}
spec:
  replicas: $replicas
  template:
    spec:
$template
YAML
# the cpu template: no GPU, no toleration
grep -v -e tolerations "$work/deployment.yaml" | sed 's/, nvidia.com\/gpu: "1"//' >"$work/cpu.yaml"
# the same pod template as a single Pod (two spaces less indentation)
{
  printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: train-0, namespace: team-7}\nspec:\n'
  sed 's/^    //' <<<"$template"
} >"$work/pod.yaml"
pod_admit=target/release/examples/pod_admit
# one measured process: prints "seconds peak_kib exit_status load_ms whatif_ms replicas"
measure() {
  local name=$1 status=0
  shift
  /usr/bin/time -f "%e %M" -o "$work/$name.time" "$pod_admit" --snapshot "$dump" --pod "$@" \
    --output json --timings >"$work/$name.json" 2>"$work/$name.err" || status=$?
  local t
  t=$(grep '^timings:' "$work/$name.err" | tail -n 1)
  python3 - "$t" "$(tail -n 1 "$work/$name.time")" "$status" <<'PY'
import re, sys
t, tm, status = sys.argv[1], sys.argv[2], sys.argv[3]
load = re.search(r"snapshot load ([0-9.]+) ms", t)
whatif = re.search(r"what-if ([0-9.]+) ms \((\d+) replicas\)", t)
print(tm, status, load.group(1) if load else "nan", whatif.group(1) if whatif else "nan",
      whatif.group(2) if whatif else "0")
PY
}
echo "dump: $(du -m "$dump" | cut -f1) MiB at scale $scale; load: $(uptime | sed 's/.*load average: //')"
read -r bt bm bs bl bw br <<<"$(measure baseline "$work/pod.yaml")"
read -r dt dm ds dl dw dr <<<"$(measure deployment-gpu "$work/deployment.yaml")"
read -r ct cm cs cl cw cr <<<"$(measure deployment-cpu "$work/cpu.yaml")"
placed=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pending"])' "$work/deployment-cpu.json" 2>/dev/null || echo '?')
ratio() { python3 -c "print(f'{$1 / max($2, 1e-9):.2f}')"; }
printf '%-15s %8s %9s %9s %10s %9s %s\n' process seconds peak_MiB load_ms whatif_ms replicas exit
printf '%-15s %8s %9s %9s %10s %9s %s\n' baseline "$bt" $((bm / 1024)) "$bl" "$bw" "$br" "$bs"
printf '%-15s %8s %9s %9s %10s %9s %s\n' deployment-gpu "$dt" $((dm / 1024)) "$dl" "$dw" "$dr" "$ds"
printf '%-15s %8s %9s %9s %10s %9s %s\n' deployment-cpu "$ct" $((cm / 1024)) "$cl" "$cw" "$cr" "$cs"
echo "deployment-gpu/baseline: whole process $(ratio "$dt" "$bt")x, what-if $(ratio "$dw" "$bw")x"
echo "deployment-cpu/baseline: whole process $(ratio "$ct" "$bt")x, what-if $(ratio "$cw" "$bw")x ($placed Pending)"
echo "target: each Deployment's what-if (index build + $replicas replicas) < 1000 ms"
echo "load after: $(uptime | sed 's/.*load average: //'); files in $work"
