#!/bin/bash
# The Kubernetes recipe checked without a cluster (docs/cluster.md):
#  1. every manifest validated, strictly (no unknown field), against the
#     Kubernetes API schemas by kubernetes-validate (PyPI, schemas shipped in
#     the package, offline), for Kubernetes 1.29 (the first release with
#     backoffLimitPerIndex on by default) and the package's latest; two
#     broken copies (a misspelt field, a wrong type) must fail, so the
#     validator is seen to validate;
#  2. the manifests agree with each other: completions = parallelism =
#     CAESAR_SHARD_COUNT = the N of the merge's shard-*-of-N.json, the same
#     image and volume claim, --out under the volume's mount;
#  3. with CAESAR_BIN (else target/release, else target/debug) the pods'
#     commands run as Kubernetes would run them: the shards Job's args once
#     per index with JOB_COMPLETION_INDEX and its env (games cut to a few),
#     then the merge Job's shell line, /results a temporary directory; the
#     merged report must equal the same run on one machine, timing apart.
# Not run: the Dockerfile (its base images cannot be pulled here) and a real
# API server. Installs kubernetes-validate into a venv under ~/.cache/caesar-workbench
# (kept for the next run) unless it is on the PATH; where PyPI cannot be reached it says so
# on one line and exits 0. Exits 1 on any failure.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
dir=$repo/deploy/kubernetes
validator_version=1.37.0
say() { echo "kubernetes/check.sh: $*"; }
skip() { echo "deploy/kubernetes/check.sh: skipped: $*"; exit 0; }

# `--prepare`: only the validator, so .ci/run can fetch it while it builds.
if command -v kubernetes-validate >/dev/null; then
    kv=$(command -v kubernetes-validate)
    py=python3
else
    venv=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/caesar-workbench/kubernetes-validate-$validator_version
    if ! "$venv/bin/kubernetes-validate" --version >/dev/null 2>&1; then
        command -v python3 >/dev/null || skip "no python3 to install kubernetes-validate"
        rm -rf "$venv"
        mkdir -p "$(dirname "$venv")"
        python3 -m venv "$venv" >/dev/null 2>&1 || skip "python3 -m venv failed (python3-venv missing?)"
        "$venv/bin/pip" install -q --disable-pip-version-check "kubernetes-validate==$validator_version" >/dev/null 2>&1 ||
            { rm -rf "$venv"; skip "cannot install kubernetes-validate from PyPI"; }
    fi
    kv=$venv/bin/kubernetes-validate
    py=$venv/bin/python
fi
[ "${1:-}" = --prepare ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. The schemas.
manifests=("$dir"/*.yaml)
for k in 1.29 ""; do
    "$kv" --strict --quiet ${k:+-k "$k"} "${manifests[@]}" ||
        { echo "kubernetes/check.sh: FAILED: a manifest does not validate against Kubernetes ${k:-latest}" >&2; exit 1; }
done
sed 's/completionMode:/completionsMode:/' "$dir/shards-job.yaml" >"$work/misspelt.yaml"
sed 's/completions: 8/completions: eight/' "$dir/shards-job.yaml" >"$work/wrong-type.yaml"
for broken in misspelt wrong-type; do
    if "$kv" --strict --quiet "$work/$broken.yaml" >/dev/null 2>&1; then
        echo "kubernetes/check.sh: FAILED: the validator passed a broken manifest ($broken)" >&2
        exit 1
    fi
done
say "${#manifests[@]} manifests valid (strict) against Kubernetes 1.29 and $("$kv" --version 2>/dev/null | head -1 | cut -d. -f1,2); broken copies refused"

# 2 and 3. The manifests' own agreement, and their commands run.
bin=${CAESAR_BIN:-}
if [ -z "$bin" ]; then
    for b in "$repo/target/release/caesar-workbench" "$repo/target/debug/caesar-workbench"; do
        [ -x "$b" ] && { bin=$b; break; }
    done
fi
"$py" - "$dir" "$work" "${bin:-}" <<'EOF'
import json, os, re, subprocess, sys
import yaml

d, work, binary = sys.argv[1], sys.argv[2], sys.argv[3]
load = lambda n: yaml.safe_load(open(os.path.join(d, n)))
shards, merge, pvc = load("shards-job.yaml"), load("merge-job.yaml"), load("results-pvc.yaml")
problems = []
def expect(ok, what):
    if not ok:
        problems.append(what)

def pod(job):
    return job["spec"]["template"]["spec"]
def container(job):
    return pod(job)["containers"][0]
def mount(job):
    return container(job)["volumeMounts"][0]["mountPath"]

spec = shards["spec"]
n = spec["completions"]
env = {e["name"]: e["value"] for e in container(shards).get("env", [])}
expect(spec.get("completionMode") == "Indexed", "shards Job: completionMode is not Indexed")
expect(spec.get("parallelism") == n, f"shards Job: parallelism {spec.get('parallelism')} != completions {n}")
expect(env.get("CAESAR_SHARD_COUNT") == str(n), f"shards Job: CAESAR_SHARD_COUNT {env.get('CAESAR_SHARD_COUNT')} != completions {n}")
script = container(merge)["args"][0]
counts = set(re.findall(r"shard-\*-of-(\w+)\.json", script))
expect(counts == {str(n)}, f"merge Job merges shard-*-of-{counts}.json, not of {n}")
expect("--complete" in script, "merge Job: merge without --complete")
expect(container(shards)["image"] == container(merge)["image"], "the two Jobs run different images")
for job, name in ((shards, "shards"), (merge, "merge")):
    claim = pod(job)["volumes"][0]["persistentVolumeClaim"]["claimName"]
    expect(claim == pvc["metadata"]["name"], f"{name} Job mounts claim {claim}, not {pvc['metadata']['name']}")
    expect(pod(job)["restartPolicy"] == "Never", f"{name} Job: restartPolicy is not Never")
    expect("ReadWriteMany" in pvc["spec"]["accessModes"], "the results volume is not ReadWriteMany")
args = container(shards)["args"]
out = args[args.index("--out") + 1]
expect(out.startswith(mount(shards) + "/"), f"--out {out} is not on the volume mounted at {mount(shards)}")
expect(mount(shards) == mount(merge), "the Jobs mount the results volume at different paths")
if problems:
    for p in problems:
        print(f"kubernetes/check.sh: FAILED: {p}", file=sys.stderr)
    sys.exit(1)
print(f"kubernetes/check.sh: manifests agree: {n} indexes, CAESAR_SHARD_COUNT, shard-*-of-{n}.json, claim {pvc['metadata']['name']}")

if not binary:
    print("kubernetes/check.sh: no binary (cargo build), so the pods' commands were not run")
    sys.exit(0)
# The pods, as Kubernetes runs them, on a few games: the entrypoint is the binary.
results = os.path.join(work, "results")
os.makedirs(results)
run = list(args)
run[run.index("--games") + 1] = str(4 * n)
run = [results + a[len(mount(shards)):] if a.startswith(mount(shards) + "/") else a for a in run]
base = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "JOB_COMPLETION", "CAESAR_SHARD"))}
procs = [subprocess.Popen([binary] + run, env={**base, **env, "JOB_COMPLETION_INDEX": str(i)},
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for i in range(n)]
for i, p in enumerate(procs):
    _, err = p.communicate()
    if p.returncode != 0:
        sys.exit(f"kubernetes/check.sh: FAILED: index {i}: {err.decode()}")
line = script.replace(mount(merge) + "/", results + "/").replace("caesar-workbench ", binary + " ")
m = subprocess.run(["/bin/sh", "-c", line], env=base, capture_output=True, text=True)
if m.returncode != 0 or not os.path.exists(os.path.join(results, "merged.txt")):
    sys.exit(f"kubernetes/check.sh: FAILED: the merge Job's command: {m.stderr}")
single = [a for a in run if a != "--shard" and a != "auto"]
cut = single.index("--out")
single = single[:cut] + single[cut + 2:] + ["--threads", "2"]
whole = subprocess.run([binary] + single, env=base, capture_output=True, text=True, check=True).stdout
def timeless(v):
    if isinstance(v, dict):
        return {k: timeless(x) for k, x in v.items() if k not in ("elapsed_seconds", "games_per_second")}
    if isinstance(v, list):
        return [timeless(x) for x in v]
    return v
merged = timeless(json.load(open(os.path.join(results, "merged.json"))))
if merged != timeless(json.loads(whole)):
    sys.exit("kubernetes/check.sh: FAILED: the merged report differs from the single-machine run")
# A missing index: the merge Job's command fails and leaves no report.
os.remove(os.path.join(results, f"shard-1-of-{n}.json"))
m = subprocess.run(["/bin/sh", "-c", line], env=base, capture_output=True, text=True)
if m.returncode == 0 or os.path.exists(os.path.join(results, "merged.json")) or os.path.exists(os.path.join(results, "merged.txt")):
    sys.exit("kubernetes/check.sh: FAILED: the merge Job's command succeeded or left a report with an index missing")
print(f"kubernetes/check.sh: the pods' commands ({n} indexes, {4 * n} games) merge into the single-machine report; with an index missing the merge fails and leaves no report")
EOF
say "not run: the Dockerfile (base images cannot be pulled here), a real API server"
