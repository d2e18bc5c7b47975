#!/bin/bash
# Submits a run as a Slurm job array of SHARDS tasks, then the merge step.
#
#   deploy/slurm/submit.sh SHARDS RESULTS_DIR COMMAND [OPTIONS...]
#   deploy/slurm/submit.sh 16 results/run-7 simulate --games 100000 --seed 7
#   deploy/slurm/submit.sh 8 results/sweep-vp sweep --set vp_to_win=8..12 --games 20000
#
# CAESAR_BIN (default: caesar-workbench on the PATH) names the binary built
# with `cargo build --release` (target/release/caesar-workbench).
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 SHARDS RESULTS_DIR COMMAND [OPTIONS...]" >&2
    exit 2
fi
shards=$1
results=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$results" logs
array=$(sbatch --parsable --array=0-$((shards - 1)) \
    --export=ALL,RESULTS="$results" "$here/shards.sbatch" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" \
    --export=ALL,RESULTS="$results" "$here/merge.sbatch")
echo "array job $array ($shards tasks), merge job ${merge%%;*}; reports in $results"
