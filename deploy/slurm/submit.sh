#!/bin/bash
# Submits a run as a Slurm job array of SHARDS tasks, then the merge step
# (docs/cluster.md); or, with --resume, only the shards a run still lacks.
#
#   deploy/slurm/submit.sh [OPTIONS] SHARDS RESULTS_DIR COMMAND [ARGS...]
#   deploy/slurm/submit.sh [OPTIONS] --resume RESULTS_DIR
#
#   deploy/slurm/submit.sh --cpus 8 --mem 2G 16 results/run-7 simulate --games 100000 --seed 7
#   deploy/slurm/submit.sh --partition short 8 results/sweep-vp sweep --set vp_to_win=8..12 --games 20000
#   deploy/slurm/submit.sh --resume results/run-7      # after a task failed or was cancelled
#   deploy/slurm/submit.sh --cpus 4 --merge-cpus 8 --merge-time 02:00:00 16 results/fair-1 \
#       fair --variant rules-2.0 --seed 5 --budget 90 --write-variant results/fair-1.ron
#   deploy/slurm/submit.sh 8 results/eq-1 balance --rounds 0 --games 2000 --first-games 2000
#
# OPTIONS (each also as --name=value):
#   --cpus N         CPUs per task (default 1); the task plays with N threads
#   --mem SIZE       memory per task, as sbatch --mem: a whole number with an
#                    optional unit K, M, G or T (default 1G; 1536M, not 1.5G)
#   --time T         time limit per task, as sbatch --time (default 04:00:00)
#   --merge-mem SIZE memory of the merge step (default 1G)
#   --merge-cpus N   CPUs of the merge step (default 1); fair's driver plays
#                    and trains with N threads
#   --merge-time T   time limit of the merge step (default: --time for fair
#                    and balance, 00:20:00 for the others)
#   --account A, --partition P, --qos Q   passed to both sbatch calls
# With --resume they default to the ones the run was submitted with.
#
# CAESAR_BIN (default: caesar-workbench on the PATH) names the binary built
# with `cargo build --release`. It, RESULTS_DIR, the directory submit.sh runs
# from (the tasks start there) and the run's input files (scenario, variant,
# player and value files) must be on a filesystem every node sees.
# RESULTS_DIR must not exist or be empty; the shard reports, merged.json,
# merged.txt, the run's record (run.args) and the logs (logs/) all land in it.
#
# Before anything is queued it checks the options, asks Slurm whether the
# jobs could run (sbatch --test-only) and runs the command's own check
# (COMMAND ARGS --dry-run, from the directory the tasks start in, with the
# arguments a task gets): a refused submit queues nothing and leaves nothing
# in RESULTS_DIR. Each task runs COMMAND ARGS with --shard auto/SHARDS, so a
# task re-run in an array of another size is refused rather than playing
# other games. The merge job runs once every task has ended (afterany): it
# writes merged.json and merged.txt when every shard report is there, and
# otherwise fails, its log (logs/caesar-merge-JOB.out) naming the missing
# shards and their task logs. `--resume RESULTS_DIR` then submits only the
# missing shards (an array of their indices, each task playing its shard
# I/SHARDS) and a new merge step: the command, shard count, options, binary
# and directory are read from RESULTS_DIR/run.args.
#
# COMMAND is simulate, compare, ladder, sweep, explain, balance or fair.
# balance: the tasks play a fixed table (--first-games as many as --games;
# a shard plays no rounds of best responses), the merge step is `balance
# --merge` of the shards.
# fair: the tasks play their part of the base's and every knob value's
# table (`fair --shard`, which trains nothing), and the merge step is the
# run's driver: `fair --merge SHARDS... --out RESULTS_DIR/merged.json` with
# the command's options but those --merge refuses (the knobs, target,
# tolerance, seed, games and training options, which the shards carry) goes
# on with the walk and the checks, training there with --merge-cpus threads
# within --budget; its players land in RESULTS_DIR/merged.players/, and
# --write-variant is the driver's (the tasks do not get it). Refused for
# both: --shard, --merge, --resume, --out, --threads, --json, --dry-run
# (submit.sh gives those), and for balance two --variant, --compare-scenario
# and --challenge (not a table of one setup).

# `sh submit.sh` (dash has no arrays and no pipefail): run again under bash.
if [ -z "${BASH_VERSION:-}" ] || case ":${SHELLOPTS:-}:" in *:posix:*) true ;; *) false ;; esac; then
    if [ -z "${CAESAR_SUBMIT_REEXEC:-}" ] && [ -f "$0" ] && command -v bash >/dev/null 2>&1; then
        CAESAR_SUBMIT_REEXEC=1 exec bash "$0" "$@"
    fi
    echo "submit.sh: needs bash: run it as deploy/slurm/submit.sh or bash deploy/slurm/submit.sh" >&2
    exit 2
fi
unset CAESAR_SUBMIT_REEXEC
set -euo pipefail
me=$0
usage() {
    echo "usage: $me [--cpus N] [--mem SIZE] [--time T] [--merge-mem SIZE] [--merge-cpus N] [--merge-time T] [--account A] [--partition P] [--qos Q] SHARDS RESULTS_DIR COMMAND [ARGS...]" >&2
    echo "       $me [OPTIONS] --resume RESULTS_DIR" >&2
    exit 2
}
refuse() { echo "$me: $*" >&2; exit 2; }
cpus='' mem='' time='' merge_mem='' merge_cpus='' merge_time='' resume=''
site=()    # --account, --partition, --qos for both jobs
site_given=0
while [ $# -gt 0 ]; do
    case $1 in
        --cpus | --mem | --time | --merge-mem | --merge-cpus | --merge-time | --account | --partition | --qos | --resume)
            [ $# -ge 2 ] || usage
            set -- "$1=$2" "${@:3}"
            ;;
        --cpus=*) cpus=${1#*=}; shift ;;
        --mem=*) mem=${1#*=}; shift ;;
        --time=*) time=${1#*=}; shift ;;
        --merge-mem=*) merge_mem=${1#*=}; shift ;;
        --merge-cpus=*) merge_cpus=${1#*=}; shift ;;
        --merge-time=*) merge_time=${1#*=}; shift ;;
        --account=* | --partition=* | --qos=*)
            [ -n "${1#*=}" ] || refuse "${1%%=*} needs a value"
            site+=("$1"); site_given=1; shift ;;
        --resume=*) resume=${1#*=}; [ -n "$resume" ] || usage; shift ;;
        --) shift; break ;;
        -*) echo "$me: unknown option $1" >&2; usage ;;
        *) break ;;
    esac
done

# --- the run: given, or read back from RESULTS_DIR/run.args ---------------------
# run.args holds NUL-separated name=value fields, then `--` and the command
# line: every field is read back as it was given, whatever characters it has.
# merge_cpus and merge_time came later: a record without them takes their
# defaults.
record_fields=(dir bin shards cpus mem time merge_mem)
if [ -n "$resume" ]; then
    [ $# -eq 0 ] || { echo "$me: --resume RESULTS_DIR takes no SHARDS or COMMAND (they are in RESULTS_DIR/run.args): $*" >&2; usage; }
    [ -d "$resume" ] || refuse "--resume $resume: no such directory"
    results=$(cd "$resume" && pwd)
    [ -f "$results/run.args" ] || refuse "--resume $resume: no $resume/run.args (a run submitted by this submit.sh records its command there)"
    mapfile -d '' fields <"$results/run.args"
    declare -A rec=()
    rec_site=()
    args=()
    for ((k = 0; k < ${#fields[@]}; k++)); do
        f=${fields[k]}
        if [ "$f" = -- ]; then args=("${fields[@]:k+1}"); break; fi
        case $f in
            site=*) rec_site+=("${f#site=}") ;;
            *=*) rec[${f%%=*}]=${f#*=} ;;
        esac
    done
    [ "${rec[version]:-}" = 1 ] || refuse "--resume: $results/run.args is not a version 1 record of this submit.sh"
    for f in "${record_fields[@]}"; do
        [ -n "${rec[$f]:-}" ] || refuse "--resume: $results/run.args has no $f: not a record written by this submit.sh"
    done
    [ ${#args[@]} -gt 0 ] || refuse "--resume: $results/run.args has no command"
    workdir=${rec[dir]} bin=${rec[bin]} shards=${rec[shards]}
    : "${cpus:=${rec[cpus]}}" "${mem:=${rec[mem]}}" "${time:=${rec[time]}}" "${merge_mem:=${rec[merge_mem]}}"
    : "${merge_cpus:=${rec[merge_cpus]:-}}" "${merge_time:=${rec[merge_time]:-}}"
    [ "$site_given" = 1 ] || site=("${rec_site[@]}")
    set -- "${args[@]}"
else
    [ $# -ge 3 ] || usage
    shards=$1
    results=$2
    shift 2
    workdir=$PWD
fi
: "${cpus:=1}" "${mem:=1G}" "${time:=04:00:00}" "${merge_mem:=1G}" "${merge_cpus:=1}"

# --- the options, before anything is queued or written ----------------------------
count_ok() { [[ $1 =~ ^[1-9][0-9]{0,5}$ ]]; }
count_ok "$shards" || refuse "SHARDS must be a positive number, not '$shards'"
count_ok "$cpus" || refuse "--cpus must be a positive number, not '$cpus'"
count_ok "$merge_cpus" || refuse "--merge-cpus must be a positive number, not '$merge_cpus'"
# Slurm's memory sizes: a whole number, then K, M (the default), G or T.
mem_ok() { [[ $1 =~ ^[0-9]{1,12}([KkMmGgTt][Bb]?)?$ ]]; }
mem_ok "$mem" || refuse "--mem $mem: not a Slurm memory size: a whole number with an optional unit K, M, G or T (e.g. 1536M, not 1.5G)"
mem_ok "$merge_mem" || refuse "--merge-mem $merge_mem: not a Slurm memory size: a whole number with an optional unit K, M, G or T (e.g. 1536M, not 1.5G)"
# Slurm's time limits: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S, or UNLIMITED.
time_ok() { [[ $1 =~ ^([0-9]+-)?[0-9]+(:[0-9]+){0,2}$|^([Uu][Nn][Ll][Ii][Mm][Ii][Tt][Ee][Dd]|[Ii][Nn][Ff][Ii][Nn][Ii][Tt][Ee])$ ]]; }
time_ok "$time" || refuse "--time $time: not a Slurm time limit (minutes, H:M:S or D-H:M:S, e.g. 04:00:00 or 1-12:00:00)"
case $1 in
    simulate | compare | ladder | sweep | explain) : "${merge_time:=00:20:00}" ;;
    fair | balance) : "${merge_time:=$time}" ;;
    *) refuse "COMMAND must be simulate, compare, ladder, sweep, explain, balance or fair, not '$1'" ;;
esac
time_ok "$merge_time" || refuse "--merge-time $merge_time: not a Slurm time limit (minutes, H:M:S or D-H:M:S, e.g. 04:00:00 or 1-12:00:00)"

# --- what the tasks and the merge step run --------------------------------------
command=$1
has_opt() { # NAME ARGS...: whether ARGS hold NAME or NAME=VALUE
    local name=$1 a
    shift
    for a in "$@"; do [[ $a == "$name" || $a == "$name="* ]] && return 0; done
    return 1
}
# What submit.sh gives the tasks and the merge step itself.
! has_opt --shard "${@:2}" || refuse "--shard: submit.sh gives each task its shard (--shard auto/$shards): leave it out"
! has_opt --out "${@:2}" || refuse "--out: the reports land in RESULTS_DIR (shard-I-of-$shards.json, merged.json, merged.txt): leave it out"
! has_opt --threads "${@:2}" || refuse "--threads: a task plays with --cpus threads (the merge step with --merge-cpus): leave it out"
! has_opt --json "${@:2}" || refuse "--json: the shard reports and merged.json are JSON, merged.txt the text: leave it out"
! has_opt --dry-run "${@:2}" || refuse "--dry-run: submit.sh runs the tasks' dry run itself before queueing: leave it out"
if [ "$command" = fair ] || [ "$command" = balance ]; then
    ! has_opt --merge "${@:2}" ||
        refuse "$command --merge: the merge step runs $command --merge of the shards itself, once they are played: leave it out (shards played elsewhere: $command --merge by hand)"
    ! has_opt --resume "${@:2}" ||
        refuse "$command --resume goes on with one machine's run and is not sharded: run it by hand (a submitted run: $me --resume RESULTS_DIR)"
fi
task_args=("$@")    # every task's command line, before --shard, --threads, --json, --out
driver_args=()      # fair: the merge step's options (fair --merge SHARDS... then these)
if [ "$command" = balance ]; then
    ! has_opt --challenge "${@:2}" || refuse "balance --challenge plays one player against a saved equilibrium, not a table: run it on one machine"
    ! has_opt --compare-scenario "${@:2}" || refuse "balance --compare-scenario compares two tables, which one sharded table is not: submit one run a scenario"
    variants=0
    for a in "${@:2}"; do [[ $a == --variant || $a == --variant=* ]] && variants=$((variants + 1)); done
    [ "$variants" -le 1 ] || refuse "balance with $variants --variant compares two tables, which one sharded table is not: submit one run a rule set"
elif [ "$command" = fair ]; then
    # fair's options that take a value (the others are flags), and of them
    # the ones the shards carry, which fair --merge refuses
    # (`conflicts_with_all` of `merge` in src/cli/fair.rs).
    valued=" --variant --scenario --vary --target --tolerance --budget --seed --games --first-games --rounds --check-rounds --oracles --tune-games --response-games --players --write-variant "
    shards_only=" --vary --target --tolerance --seed --games --first-games --rounds --check-rounds --oracles --tune-games --response-games --players --only-named "
    task_args=(fair)
    budget=30    # fair's default, in minutes
    given=("${@:2}")
    for ((k = 0; k < ${#given[@]}; k++)); do
        opt=("${given[k]}")
        name=${given[k]%%=*}
        if [[ ${given[k]} != *=* && $valued == *" $name "* ]] && [ $((k + 1)) -lt ${#given[@]} ]; then
            k=$((k + 1))
            opt+=("${given[k]}")
        fi
        [ "$name" != --budget ] || budget=${opt[${#opt[@]} - 1]#--budget=}
        if [ "$name" = --write-variant ]; then
            driver_args+=("${opt[@]}")    # the answer is the driver's (--shard refuses it)
        elif [[ $shards_only == *" $name "* ]]; then
            task_args+=("${opt[@]}")
        else
            task_args+=("${opt[@]}")
            driver_args+=("${opt[@]}")
        fi
    done
    # A driver that Slurm stops before its budget ends leaves no report.
    slurm_minutes() { # a checked Slurm time limit in whole minutes (nothing for UNLIMITED)
        local t=${1,,} d=0 a b c
        case $t in unlimited | infinite) return ;; esac
        if [[ $t == *-* ]]; then
            d=${t%%-*}
            IFS=: read -r a b c <<<"${t#*-}"
            echo $((10#$d * 1440 + 10#$a * 60 + 10#${b:-0} + (10#${c:-0} + 59) / 60))
        else
            IFS=: read -r a b c <<<"$t"
            if [ -n "$c" ]; then echo $((10#$a * 60 + 10#$b + (10#$c + 59) / 60))
            else echo $((10#$a + (10#${b:-0} + 59) / 60)); fi
        fi
    }
    limit=$(slurm_minutes "$merge_time")
    if [ -n "$limit" ] && awk -v b="$budget" -v m="$limit" 'BEGIN { exit !(b + 0 > m) }'; then
        refuse "--merge-time $merge_time is shorter than fair's --budget $budget minutes: Slurm would stop the driver before it writes its report (give --merge-time longer than the budget)"
    fi
fi

# The binary, by absolute path: the tasks run it from other nodes.
if [ -n "$resume" ]; then
    [ -x "$bin" ] || refuse "--resume: the run's binary $bin (from run.args) is gone; the missing shards must be played by the same build"
else
    bin=$(command -v "${CAESAR_BIN:-caesar-workbench}") || {
        echo "$me: no binary ${CAESAR_BIN:-caesar-workbench}; set CAESAR_BIN (cargo build --release: target/release/caesar-workbench)" >&2
        exit 2
    }
    bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
    # A fresh results directory: old shards of another run (or of another
    # shard count) must not be merged with this one's.
    if [ -e "$results" ] && ! [ -d "$results" ]; then
        refuse "$results is not a directory"
    elif [ -d "$results" ] && [ -n "$(ls -A "$results")" ]; then
        refuse "$results is not empty; give each run a new results directory (or resume it: $me --resume $results)"
    fi
fi
here=$(cd "$(dirname "$0")" && pwd)

# --- which shards (resume: the ones whose report is missing) ----------------------
todo=()    # 0-based shard indices = array task ids
if [ -n "$resume" ]; then
    # Nothing of the run may still be queued: a pending task would play its
    # shard a second time, a pending merge would race the new one.
    ids=()
    [ -f "$results/logs/jobs" ] && read -r -a ids <<<"$(tr '\n' ' ' <"$results/logs/jobs")"
    if [ ${#ids[@]} -gt 0 ]; then
        in_queue=$(squeue -h -o '%A %F %i' 2>/dev/null) || refuse "--resume: squeue does not answer: cannot tell whether jobs of the run are still queued"
        still=$(awk -v ids=" ${ids[*]} " '{ if (index(ids, " " $1 " ") || index(ids, " " $2 " ")) print $3 }' <<<"$in_queue" | sort -u | tr '\n' ' ')
        [ -z "$still" ] || refuse "--resume: jobs of this run are still queued (${still% }; squeue -j $(
            IFS=,
            echo "${ids[*]}"
        )): wait until they end, or scancel them, then resume"
    fi
    for ((i = 0; i < shards; i++)); do
        [ -f "$results/shard-$((i + 1))-of-$shards.json" ] || todo+=("$i")
    done
    if [ ${#todo[@]} -eq 0 ] && [ -f "$results/merged.json" ] && [ -f "$results/merged.txt" ]; then
        echo "$me: $results holds all $shards shard reports and the merged report: nothing to resume"
        exit 0
    fi
else
    for ((i = 0; i < shards; i++)); do todo+=("$i"); done
fi
# 0,1,2,5,7,8 -> 0-2,5,7-8 (an --array specification)
ranges() {
    local out='' start='' prev='' i
    for i in "$@" ''; do
        if [ -n "$start" ] && { [ -z "$i" ] || [ "$i" != $((prev + 1)) ]; }; then
            [ "$start" = "$prev" ] && out+=",$start" || out+=",$start-$prev"
            start=
        fi
        [ -n "$i" ] && [ -z "$start" ] && start=$i
        prev=$i
    done
    echo "${out#,}"
}
spec=$(ranges "${todo[@]}")
shard_names() { local i s=; for i in "$@"; do s+=",$((i + 1))"; done; echo "${s#,}"; }

# --- resources: what no node has pends for ever ----------------------------------
to_mb() { # a checked Slurm memory size (1G, 500M, 2000, 4GB) in MB
    local n=${1%[Bb]}
    case $n in
        *[Tt]) echo $((10#${n%?} * 1024 * 1024)) ;;
        *[Gg]) echo $((10#${n%?} * 1024)) ;;
        *[Mm]) echo $((10#${n%?})) ;;
        *[Kk]) echo $(((10#${n%?} + 1023) / 1024)) ;;
        *) echo $((10#$n)) ;;
    esac
}
partition=()
for s in "${site[@]}"; do [[ $s == --partition=* ]] && partition=(-p "${s#*=}"); done
if largest=$(sinfo -h "${partition[@]}" -o '%c %m' 2>/dev/null | tr -d + |
    awk '$1 > c { c = $1 } $2 > m { m = $2 } END { if (c) print c, m }') && [ -n "$largest" ]; then
    read -r node_cpus node_mb <<<"$largest"
    if [ "$cpus" -gt "$node_cpus" ] || [ "$(to_mb "$mem")" -gt "$node_mb" ]; then
        refuse "--cpus $cpus --mem $mem: no node has that much (the largest: $node_cpus CPUs, ${node_mb}M; sinfo -o '%c %m'), the tasks would pend for ever"
    fi
    if [ "$merge_cpus" -gt "$node_cpus" ] || [ "$(to_mb "$merge_mem")" -gt "$node_mb" ]; then
        refuse "--merge-cpus $merge_cpus --merge-mem $merge_mem: no node has that much (the largest: $node_cpus CPUs, ${node_mb}M; sinfo -o '%c %m'), the merge would pend for ever"
    fi
fi
task_opts=("${site[@]}" --job-name=caesar-shards --chdir="$workdir"
    --cpus-per-task="$cpus" --mem="$mem" --time="$time"
    --output="$results/logs/%x-%A_%a.out" --open-mode=append --export=ALL)
merge_opts=("${site[@]}" --job-name=caesar-merge --chdir="$workdir"
    --cpus-per-task="$merge_cpus" --mem="$merge_mem" --time="$merge_time"
    --output="$results/logs/%x-%j.out" --export=ALL)
# The merge step's command line (merge.sbatch): none for a plain merge.
case $command in
    fair) merge_args=(fair "${driver_args[@]}") ;;
    balance) merge_args=(balance) ;;
    *) merge_args=() ;;
esac
# Slurm's own word on both jobs (the account, partition, QOS, limits), with
# nothing queued: sbatch --test-only.
test_job() { # WHAT SBATCH-OPTIONS...
    local what=$1 out
    shift
    out=$(sbatch --test-only "$@" 2>&1) ||
        refuse "Slurm refuses the $what ($(tr '\n' ' ' <<<"$out" | sed 's/ *$//')); nothing was queued"
}
[ ${#todo[@]} -eq 0 ] || test_job "tasks (--cpus $cpus --mem $mem --time $time ${site[*]})" \
    "${task_opts[@]}" --array="$spec" "$here/shards.sbatch"
test_job "merge step (--merge-cpus $merge_cpus --merge-mem $merge_mem --merge-time $merge_time ${site[*]})" \
    "${merge_opts[@]}" "$here/merge.sbatch"

# --- RESULTS_DIR, the record, the command's own check ----------------------------
made=()    # what this submit created, removed again if it fails before queueing
queued=0
undo() {
    local rc=$? k
    if [ "$rc" != 0 ] && [ "$queued" = 0 ]; then
        for ((k = ${#made[@]} - 1; k >= 0; k--)); do
            if [ -d "${made[k]}" ]; then rmdir "${made[k]}" 2>/dev/null || true; else rm -f "${made[k]}"; fi
        done
    fi
    exit "$rc"
}
trap undo EXIT
trap 'exit 1' INT TERM
if [ -z "$resume" ]; then
    missing=()
    d=$results
    while [ ! -d "$d" ]; do missing=("$d" "${missing[@]}"); d=$(dirname "$d"); done
    made+=("${missing[@]}")
    mkdir -p "$results"
    results=$(cd "$results" && pwd)
    made+=("$results/logs" "$results/run.args")
    mkdir "$results/logs"
    {
        printf '%s\0' version=1 "dir=$workdir" "bin=$bin" "shards=$shards" "cpus=$cpus" \
            "mem=$mem" "time=$time" "merge_mem=$merge_mem" "merge_cpus=$merge_cpus" "merge_time=$merge_time"
        for s in "${site[@]}"; do printf 'site=%s\0' "$s"; done
        printf '%s\0' -- "$@"
    } >"$results/run.args"
fi

# The tasks' command line (shards.sbatch): COMMAND ARGS, then what it adds.
# A first submit's tasks take their shard from the array (--shard auto/N);
# a resumed array has gaps (--array=1,3), so its task T plays shard T+1.
if [ -n "$resume" ]; then shard_from=task-id; else shard_from=auto; fi
if [ ${#todo[@]} -gt 0 ]; then
    first=${todo[0]}
    if [ "$shard_from" = auto ]; then shard=auto/$shards; else shard=$((first + 1))/$shards; fi
    # The first task's own command, from the directory the tasks start in:
    # it reads every input and checks every output, and plays no game.
    dry=$(cd "$workdir" && SLURM_ARRAY_TASK_ID=$first SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=1 \
        SLURM_ARRAY_TASK_MAX=$((shards - 1)) SLURM_ARRAY_TASK_COUNT=$shards \
        "$bin" "${task_args[@]}" --shard "$shard" --threads "$cpus" --json \
        --out "$results/shard-{shard}.json" --dry-run 2>&1) || {
        while IFS= read -r line; do echo "    $line"; done <<<"$dry" >&2
        refuse "the command's own check failed (above: $(basename "$bin") ${task_args[*]} --shard $shard ... --dry-run, run in $workdir as the tasks will be); nothing was queued"
    }
fi
# fair's driver cannot be dry-run before its shards are there: its options
# and outputs (--write-variant against the knobs, merged.json) are checked
# as the same run on one machine checks them.
if [ "$command" = fair ]; then
    drive=$(cd "$workdir" && "$bin" "$@" --threads "$merge_cpus" --out "$results/merged.json" --dry-run 2>&1) || {
        while IFS= read -r line; do echo "    $line"; done <<<"$drive" >&2
        refuse "the merge step's check failed (above: $(basename "$bin") $* --out $results/merged.json --dry-run, run in $workdir as the driver will be); nothing was queued"
    }
fi

# --- queue: the array held until its merge step is queued too --------------------
[ -d "$results/logs" ] || mkdir "$results/logs"    # (resume: Slurm writes the logs there)
export RESULTS=$results SHARDS=$shards CAESAR_BIN=$bin SHARD_FROM=$shard_from SUBMIT_SH=$here/submit.sh
array=
if [ ${#todo[@]} -gt 0 ]; then
    array=$(sbatch --parsable --hold "${task_opts[@]}" --array="$spec" "$here/shards.sbatch" "${task_args[@]}") ||
        refuse "sbatch refused the array (above); nothing was queued"
    array=${array%%;*}
    queued=1
    dep=(--dependency="afterany:$array" --kill-on-invalid-dep=yes)
else
    dep=()
fi
if ! merge=$(sbatch --parsable "${merge_opts[@]}" "${dep[@]}" "$here/merge.sbatch" "${merge_args[@]}"); then
    if [ -n "$array" ]; then
        if scancel "$array"; then
            queued=0
            refuse "sbatch refused the merge step (above); the held array job $array was cancelled: nothing is queued"
        fi
        echo "$me: sbatch refused the merge step (above), and array job $array (held) could not be cancelled: scancel $array" >&2
        echo "array job $array (held; its merge step refused): scancel $array" >>"$results/logs/submit.txt"
    fi
    exit 1
fi
merge=${merge%%;*}
queued=1
echo "${array:+$array }$merge" >>"$results/logs/jobs"
if [ -n "$array" ] && ! scontrol release "$array"; then
    echo "$me: array job $array is queued but held, and scontrol release failed: run scontrol release $array (merge job $merge waits for it)" >&2
    echo "array job $array (held: scontrol release $array), merge job $merge" >>"$results/logs/submit.txt"
    exit 1
fi
{
    [ -z "$resume" ] || echo "--- resumed $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    if [ -n "$array" ]; then
        echo "array job $array (${#todo[@]} tasks: shards $(shard_names "${todo[@]}") of $shards), merge job $merge; reports in $results"
    else
        echo "no array job (all $shards shard reports are there), merge job $merge; reports in $results"
    fi
    [ -z "${dry:-}" ] || echo "checked: $(tail -n 1 <<<"$dry")"
    echo "logs: $results/logs; the merged report: $results/merged.txt and merged.json"
    echo "the run (in $results/run.args): cd $workdir && $(basename "$bin") ${task_args[*]} --shard ${shard_from/task-id/I}/$shards"
    [ ${#merge_args[@]} -eq 0 ] ||
        echo "the merge step ($merge_cpus CPUs, $merge_time): $(basename "$bin") ${merge_args[0]} --merge SHARDS ${merge_args[*]:1} --threads $merge_cpus --out $results/merged.json"
    echo "if a task fails or is cancelled, the merge job fails, its log naming the missing shards:"
    echo "  squeue -j ${array:+$array,}$merge; cat $results/logs/caesar-merge-$merge.out"
    echo "then, once no job of the run is left in squeue, submit only the missing shards and a new merge:"
    printf '  %q --resume %q\n' "$here/submit.sh" "$results"
} | tee -a "$results/logs/submit.txt"
