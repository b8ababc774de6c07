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
# Each process's wall time, CPU time (user + system: the figure other load on the machine does not
# inflate; the loader parses on every core, so CPU time can exceed wall time) and peak RSS.
# With CUBE_POD_ADMIT_COMPARE=/path/to/another/pod_admit (say a build of main in another target
# dir), that binary runs the gpu Deployment too, and the whole-process ratios to it are printed
# (the same outputs are checked to be byte-identical).
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
  selector: {matchLabels: {app: train}}
  template:
    metadata: {labels: {app: train}}
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
compare=${CUBE_POD_ADMIT_COMPARE:-}
# one measured process: prints "wall_seconds cpu_seconds peak_kib exit_status load_ms whatif_ms
# replicas"
measure() {
  local name=$1 bin=$2 status=0
  shift 2
  /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$bin" --snapshot "$dump" --pod "$@" \
    --output json --timings >"$work/$name.json" 2>"$work/$name.err" || status=$?
  local t
  t=$(grep '^timings:' "$work/$name.err" | tail -n 1)
  python3 - "$t" "$(tail -n 1 "$work/$name.time")" "$status" <<'PY'
import re, sys
t, tm, status = sys.argv[1], sys.argv[2].split(), sys.argv[3]
load = re.search(r"snapshot load ([0-9.]+) ms", t)
whatif = re.search(r"what-if ([0-9.]+) ms \((\d+) replicas\)", t)
print(tm[0], f"{float(tm[1]) + float(tm[2]):.2f}", tm[3], status,
      load.group(1) if load else "nan", whatif.group(1) if whatif else "nan",
      whatif.group(2) if whatif else "0")
PY
}
echo "dump: $(du -m "$dump" | cut -f1) MiB at scale $scale; $(nproc) cores; load: $(uptime | sed 's/.*load average: //')"
read -r bt bc bm bs bl bw br <<<"$(measure baseline "$pod_admit" "$work/pod.yaml")"
read -r dt dc dm ds dl dw dr <<<"$(measure deployment-gpu "$pod_admit" "$work/deployment.yaml")"
read -r ct cc cm cs cl cw cr <<<"$(measure deployment-cpu "$pod_admit" "$work/cpu.yaml")"
if [[ -n "$compare" ]]; then
  read -r xt xc xm xs xl xw xr <<<"$(measure compare-gpu "$compare" "$work/deployment.yaml")"
fi
placed=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pending"])' "$work/deployment-cpu.json" 2>/dev/null || echo '?')
ratio() { python3 -c "print(f'{$1 / max($2, 1e-9):.2f}')"; }
row() { printf '%-15s %7s %7s %9s %9s %10s %9s %s\n' "$@"; }
row process wall_s cpu_s peak_MiB load_ms whatif_ms replicas exit
row baseline "$bt" "$bc" $((bm / 1024)) "$bl" "$bw" "$br" "$bs"
row deployment-gpu "$dt" "$dc" $((dm / 1024)) "$dl" "$dw" "$dr" "$ds"
row deployment-cpu "$ct" "$cc" $((cm / 1024)) "$cl" "$cw" "$cr" "$cs"
echo "deployment-gpu/baseline: whole process $(ratio "$dt" "$bt")x, what-if $(ratio "$dw" "$bw")x"
echo "deployment-cpu/baseline: whole process $(ratio "$ct" "$bt")x, what-if $(ratio "$cw" "$bw")x ($placed Pending)"
if [[ -n "$compare" ]]; then
  row compare-gpu "$xt" "$xc" $((xm / 1024)) "$xl" "$xw" "$xr" "$xs"
  same=$(cmp -s "$work/deployment-gpu.json" "$work/compare-gpu.json" && echo identical || echo DIFFERENT)
  echo "deployment-gpu/compare-gpu ($compare): wall $(ratio "$dt" "$xt")x, cpu $(ratio "$dc" "$xc")x, peak RSS $(ratio "$dm" "$xm")x; outputs $same"
fi
echo "targets (issue 12): the whole pod_admit process < 1 s; each what-if (index build + $replicas replicas) < 1000 ms"
echo "load after: $(uptime | sed 's/.*load average: //'); files in $work"
