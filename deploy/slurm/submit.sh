#!/bin/bash
# Submits a run as a Slurm job array of SHARDS tasks, then the merge step
# (docs/cluster.md).
#
#   deploy/slurm/submit.sh [OPTIONS] SHARDS RESULTS_DIR COMMAND [ARGS...]
#   deploy/slurm/submit.sh --cpus 8 --mem 2G 16 results/run-7 simulate --games 100000 --seed 7
#   deploy/slurm/submit.sh --partition short 8 results/sweep-vp sweep --set vp_to_win=8..12 --games 20000
#
# OPTIONS (each also as --name=value):
#   --cpus N         CPUs per task (default 1); the task plays with N threads
#   --mem SIZE       memory per task, as sbatch --mem (default 1G)
#   --time T         time limit per task, as sbatch --time (default 04:00:00)
#   --merge-mem SIZE memory of the merge step (default 1G)
#   --account A, --partition P, --qos Q   passed to both sbatch calls
#
# CAESAR_BIN (default: caesar-workbench on the PATH) names the binary built
# with `cargo build --release`. It, RESULTS_DIR and the run's input files
# must be on a filesystem every node sees. RESULTS_DIR must not exist or be
# empty; the shard reports, merged.json, merged.txt and the logs (logs/) all
# land in it. Each task runs COMMAND ARGS with --shard auto/SHARDS, so a task
# re-run in an array of another size is refused rather than playing other
# games. The merge job waits for every task (afterok) and is cancelled if one
# fails (--kill-on-invalid-dep=yes); what to do then is printed below and
# kept in RESULTS_DIR/logs/submit.txt.
set -euo pipefail
usage() {
    echo "usage: $0 [--cpus N] [--mem SIZE] [--time T] [--merge-mem SIZE] [--account A] [--partition P] [--qos Q] SHARDS RESULTS_DIR COMMAND [ARGS...]" >&2
    exit 2
}
cpus=1 mem=1G time=04:00:00 merge_mem=1G
site=()    # --account, --partition, --qos for both jobs
while [ $# -gt 0 ]; do
    case $1 in
        --cpus | --mem | --time | --merge-mem | --account | --partition | --qos)
            [ $# -ge 2 ] || usage
            set -- "$1=$2" "${@:3}"
            ;;
        --cpus=*) cpus=${1#*=}; shift ;;
        --mem=*) mem=${1#*=}; shift ;;
        --time=*) time=${1#*=}; shift ;;
        --merge-mem=*) merge_mem=${1#*=}; shift ;;
        --account=* | --partition=* | --qos=*) site+=("$1"); shift ;;
        --) shift; break ;;
        -*) echo "$0: unknown option $1" >&2; usage ;;
        *) break ;;
    esac
done
[ $# -ge 3 ] || usage
shards=$1
results=$2
shift 2
case $shards in '' | *[!0-9]* | 0*) echo "$0: SHARDS must be a positive number, not '$shards'" >&2; exit 2 ;; esac
case $cpus in '' | *[!0-9]* | 0*) echo "$0: --cpus must be a positive number, not '$cpus'" >&2; exit 2 ;; esac
case $1 in
    simulate | compare | ladder | sweep) ;;
    *) echo "$0: COMMAND must be simulate, compare, ladder or sweep, not '$1'" >&2; exit 2 ;;
esac

# The binary, by absolute path: the tasks run it from other nodes.
bin=$(command -v "${CAESAR_BIN:-caesar-workbench}") || {
    echo "$0: no binary ${CAESAR_BIN:-caesar-workbench}; set CAESAR_BIN (cargo build --release: target/release/caesar-workbench)" >&2
    exit 2
}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

# A fresh results directory: old shards of another run (or of another shard
# count) must not be merged with this one's.
if [ -d "$results" ] && [ -n "$(ls -A "$results")" ]; then
    echo "$0: $results is not empty; give each run a new results directory" >&2
    exit 2
fi
mkdir -p "$results/logs"
results=$(cd "$results" && pwd)

# Resources no node has are accepted by sbatch and pend for ever
# (Reason=PartitionConfig or Resources): refuse them here when sinfo can tell.
to_mb() { # sbatch memory (1G, 500M, 2000) in MB
    case $1 in
        *[Tt]) echo $((${1%?} * 1024 * 1024)) ;;
        *[Gg]) echo $((${1%?} * 1024)) ;;
        *[Mm]) echo $((${1%?})) ;;
        *[Kk]) echo $((${1%?} / 1024)) ;;
        *) echo $(($1)) ;;
    esac
}
partition=()
for s in "${site[@]}"; do [[ $s == --partition=* ]] && partition=(-p "${s#*=}"); done
if largest=$(sinfo -h "${partition[@]}" -o '%c %m' 2>/dev/null | tr -d + |
    awk '$1 > c { c = $1 } $2 > m { m = $2 } END { if (c) print c, m }') && [ -n "$largest" ]; then
    read -r node_cpus node_mb <<<"$largest"
    if [ "$cpus" -gt "$node_cpus" ] || [ "$(to_mb "$mem")" -gt "$node_mb" ]; then
        echo "$0: --cpus $cpus --mem $mem: no node has that much (the largest: $node_cpus CPUs, ${node_mb}M; sinfo -o '%c %m'), the tasks would pend for ever" >&2
        exit 2
    fi
fi

here=$(cd "$(dirname "$0")" && pwd)
export RESULTS=$results SHARDS=$shards CAESAR_BIN=$bin
array=$(sbatch --parsable "${site[@]}" --job-name=caesar-shards \
    --array=0-$((shards - 1)) --cpus-per-task="$cpus" --mem="$mem" --time="$time" \
    --output="$results/logs/%x-%A_%a.out" --open-mode=append \
    --export=ALL "$here/shards.sbatch" "$@")
array=${array%%;*}
merge_job() { # the sbatch line of the merge step, after DEPENDENCY
    printf '%q ' sbatch --parsable "${site[@]}" --job-name=caesar-merge \
        --dependency="$1" --kill-on-invalid-dep=yes --cpus-per-task=1 --mem="$merge_mem" \
        --time=00:20:00 --output="$results/logs/%x-%j.out" \
        --export=ALL,RESULTS="$results",SHARDS="$shards",CAESAR_BIN="$bin" "$here/merge.sbatch"
}
merge=$(eval "$(merge_job "afterok:$array")")
merge=${merge%%;*}
{
    echo "array job $array ($shards tasks), merge job $merge; reports in $results"
    echo "logs: $results/logs; the merged report: $results/merged.txt and merged.json"
    echo "if a task fails (squeue --me -j $array,$merge; scontrol show job $array), the merge job is cancelled:"
    echo "  scontrol requeue ${array}_TASK            # each failed task, e.g. ${array}_0"
    echo "  scontrol update JobId=${array}_TASK StartTime=now   # else a requeued task waits ~2 minutes"
    echo "  $(merge_job "afterany:$array")"
    echo "or, once no task of $array is left in squeue, merge by hand:"
    printf '  RESULTS=%q SHARDS=%q CAESAR_BIN=%q %q\n' "$results" "$shards" "$bin" "$here/merge.sbatch"
} | tee "$results/logs/submit.txt"
