#!/bin/bash
# The Slurm recipe (submit.sh, shards.sbatch, merge.sbatch) run end to end on
# a real Slurm: a single-node cluster this script sets up (Debian's slurm-wlm
# and munge, Slurm 22.05; its configuration, state and logs in a temporary
# directory; munged, slurmctld and slurmd started by hand and stopped by PID),
# or the Slurm already answering `scontrol ping`. It runs simulate, ladder and
# sweep as arrays; submits that must be refused before anything is queued,
# leaving nothing behind (a relative player file from another folder,
# --mem 1.5G, --time 1h as `sh submit.sh`, a bad --merge-mem, a merge step sbatch
# refuses after the array); the corrected submit into the same directory, a
# simulate whose task 3 is cancelled while pending and task 1 fails (the
# merge fails, its log naming both), and `submit.sh --resume`; the refusals
# (a re-run as an array of another size, a non-empty results directory,
# resources no node has, a merge over missing shards); and compares every
# merged report field by field with the same run on one machine, timing
# fields apart. Then a fair run (2 tasks; its merge step the driver, with
# --merge-cpus 2 and the run's --write-variant) and a balance table (2
# tasks), submitted together: fair's report and variant file against a
# one-shard run merged, balance's against the table on one machine, fair's
# run.args and a --resume that has nothing to do, a driver killed at its
# first checkpoint and the next merge step going on from it to the same
# report; and ten submits of theirs
# refused before queueing (--merge-cpus 0 or 64, --merge-time 1h or shorter
# than the budget, --merge or --shard given, a --write-variant the driver
# could not write, balance with two --variant, --resume, or a table the
# tasks' check refuses).
#
#   deploy/slurm/check.sh            # CAESAR_BIN, else target/release, else target/debug
#   deploy/slurm/check.sh --prepare  # only install the packages (CI, while it builds)
#   CAESAR_CHECK_SCALE=50 deploy/slurm/check.sh    # 50 times the games: figures for docs/cluster.md
#
# Exits 0 when everything agrees, 1 on any difference or failure; where it
# cannot have a Slurm (not root, packages unreachable) it says so on one line
# and exits 0. Run by .ci/run after cargo test.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
slurm_dir=$repo/deploy/slurm
scale=${CAESAR_CHECK_SCALE:-1}
started=$(date +%s.%N)
say() { echo "check.sh: $*"; }
skip() { echo "deploy/slurm/check.sh: skipped: $*"; exit 0; }
fail() { echo "check.sh: FAILED: $*" >&2; failed=1; }
failed=0

# Debian's slurm-wlm, munge and jq where missing (needs root and apt-get).
install_packages() {
    need=()
    command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null || need+=(slurm-wlm)
    command -v munged >/dev/null && command -v mungekey >/dev/null || need+=(munge)
    command -v jq >/dev/null || need+=(jq)
    if [ ${#need[@]} -gt 0 ]; then
        command -v apt-get >/dev/null || skip "no Slurm, and no apt-get to install ${need[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt_log=$(mktemp)
        if ! apt-get install -y -q --no-install-recommends "${need[@]}" >"$apt_log" 2>&1; then
            apt-get update -q >>"$apt_log" 2>&1 &&
                apt-get install -y -q --no-install-recommends "${need[@]}" >>"$apt_log" 2>&1 ||
                { rm -f "$apt_log"; skip "cannot install ${need[*]} (apt-get failed: packages unreachable?)"; }
        fi
        rm -f "$apt_log"
        say "installed ${need[*]}"
    fi
}

# `--prepare`: only the packages, so .ci/run can fetch them while it builds.
if [ "${1:-}" = --prepare ]; then
    [ "$(id -u)" = 0 ] || skip "setting up Slurm needs root"
    scontrol ping >/dev/null 2>&1 || install_packages
    exit 0
fi

bin=${CAESAR_BIN:-}
if [ -z "$bin" ]; then
    for b in "$repo/target/release/caesar-workbench" "$repo/target/debug/caesar-workbench"; do
        [ -x "$b" ] && { bin=$b; break; }
    done
fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "check.sh: no binary: build first (cargo build --release) or set CAESAR_BIN" >&2; exit 1; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
export CAESAR_BIN=$bin

# --- a Slurm to run on --------------------------------------------------------
pids=()    # what this script started, stopped by PID on exit
work=
own_slurm=0
cleanup() {
    local rc=$?
    if [ "$own_slurm" = 1 ]; then
        scancel --quiet --user="$(id -un)" 2>/dev/null || true
        for _ in $(seq 20); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.25; done
    fi
    local p
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do
        for _ in $(seq 40); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    if [ -n "$work" ]; then
        if [ "$rc" = 0 ] && [ "${CAESAR_CHECK_KEEP:-0}" = 0 ]; then rm -rf "$work"; else say "kept $work"; fi
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if scontrol ping >/dev/null 2>&1 && sinfo -h >/dev/null 2>&1; then
    # A Slurm runs already: results under the repository, which the nodes
    # must see (as they must see the binary).
    mkdir -p "$repo/target"
    work=$(mktemp -d "$repo/target/slurm-check.XXXXXX")
    say "using the running Slurm ($(scontrol ping | head -1))"
else
    [ "$(id -u)" = 0 ] || skip "no Slurm answers and setting one up needs root"
    install_packages
    id munge >/dev/null 2>&1 || skip "no munge user after installing munge"
    own_slurm=1
    work=$(mktemp -d /tmp/caesar-slurm-check.XXXXXX)
    chmod 755 "$work"
    mkdir -p "$work/munge" "$work/state" "$work/spool"
    chown munge:munge "$work/munge"
    chmod 711 "$work/munge"    # munged: the socket's directory needs x for all
    sock=$work/munge/munge.socket
    as_munge=(setpriv --reuid=munge --regid=munge --init-groups)
    "${as_munge[@]}" mungekey -c -k "$work/munge/munge.key"
    "${as_munge[@]}" munged -F -S "$sock" --key-file="$work/munge/munge.key" \
        --log-file="$work/munge/munged.log" --pid-file="$work/munge/munged.pid" \
        --seed-file="$work/munge/munged.seed" >"$work/munged.out" 2>&1 &
    pids+=($!)
    for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
    [ -S "$sock" ] || { cat "$work/munged.out" >&2; echo "check.sh: munged did not start" >&2; exit 1; }

    node=$(hostname -s)
    port=$((20000 + RANDOM % 20000))
    cat >"$work/slurm.conf" <<EOF
ClusterName=caesarcheck
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$work/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=3600
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 RealMemory=2000 State=UNKNOWN
PartitionName=check Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF=$work/slurm.conf
    slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
    pids+=($!)
    slurmd -D -N "$node" -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do sinfo -h -o '%T' 2>/dev/null | grep -qx idle && break; sleep 0.2; done
    if ! sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
        tail -n 20 "$work/slurmctld.log" "$work/slurmd.log" >&2 || true
        echo "check.sh: the single-node Slurm did not come up" >&2
        exit 1
    fi
    say "single-node Slurm $(sinfo -V | cut -d' ' -f2) up in $work (ports $port-$((port + 1)))"
fi
cd "$work"

# --- helpers ----------------------------------------------------------------
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# Waits until none of the jobs is in squeue; prints nothing.
wait_jobs() {
    local ids=$1
    for _ in $(seq 2400); do
        [ -z "$(squeue -h -j "$ids" 2>/dev/null)" ] && return 0
        sleep 0.25
    done
    fail "jobs $ids still queued after 10 minutes"
    return 1
}
state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2; }
# The report without its wall-clock figures, as one line per leaf: path value
# (FILTER, a jq filter, first: what the two runs may say differently).
leaves() { # REPORT [FILTER]
    jq -c "${2:-.} | walk(if type == \"object\" then del(.elapsed_seconds, .games_per_second) else . end)
           | paths(scalars) as \$p | [(\$p | map(tostring) | join(\".\")), getpath(\$p)]" "$1"
}
# Compares a merged report with the single-machine one, field by field.
same_report() { # NAME MERGED SINGLE [FILTER]
    local name=$1 merged=$2 single=$3 filter=${4:-.}
    if [ ! -s "$merged" ]; then fail "$name: no merged report $merged"; return; fi
    local d
    d=$(diff <(leaves "$merged" "$filter") <(leaves "$single" "$filter")) || true
    if [ -n "$d" ]; then
        fail "$name: the merged report differs from the single-machine run (< merged, > single):"
        echo "$d" | head -n 40 >&2
    elif [ "$(leaves "$merged" | wc -l)" -lt 10 ]; then
        fail "$name: the merged report has hardly any fields"
    else
        say "$name: merged report = single-machine report ($(leaves "$merged" | wc -l) fields, timing apart)"
    fi
}
submit() { # [OPTIONS] SHARDS RESULTS COMMAND ARGS...: prints "array merge"
    local out
    out=$("$slurm_dir/submit.sh" --mem 200M --merge-mem 200M "$@") || { echo "$out" >&2; return 1; }
    echo "$out" | sed -n 's/^array job \([0-9]*\) .*merge job \([0-9]*\);.*/\1 \2/p'
}
report_figures=()
# NAME SHARDS COMMAND ARGS...: the run on Slurm, then on one machine; compares.
run_case() {
    local name=$1 shards=$2
    shift 2
    local t0 t1 t2 jobs array merge
    t0=$(now)
    jobs=$(submit "$shards" "$work/$name" "$@") || { fail "$name: submit.sh failed"; return; }
    read -r array merge <<<"$jobs"
    wait_jobs "$array,$merge" || return
    t1=$(now)
    [ "$(state "$merge")" = COMPLETED ] || fail "$name: merge job $merge is $(state "$merge"), not COMPLETED"
    "$bin" "$@" --threads 2 --json --out "$work/$name.single.json"
    t2=$(now)
    same_report "$name" "$work/$name/merged.json" "$work/$name.single.json"
    [ -s "$work/$name/merged.txt" ] || fail "$name: no merged.txt"
    report_figures+=("$name: $shards tasks x 1 CPU, submit to merged $(secs "$t0" "$t1") s; one machine (--threads 2) $(secs "$t1" "$t2") s")
}

g() { echo $(($1 * scale)); }

# --- the runs -----------------------------------------------------------------
run_case simulate 4 simulate --games "$(g 200)" --seed 7 --caesar-ai heuristic --pompey-ai heuristic
run_case ladder 3 ladder --players random,heuristic --games "$(g 20)" --seed 3
run_case sweep 2 sweep --set vp_to_win=9..10 --games "$(g 40)" --seed 5
run_case explain 2 explain --variant rules-1.1 --variant rules-2.0 --games "$(g 40)" --seed 9 \
    --caesar-ai heuristic --pompey-ai heuristic

# --- recovery ---------------------------------------------------------------
# Submits that must be refused before anything is queued, leaving nothing in
# the results directory; then the corrected submit into the same directory
# (run as `sh submit.sh`), a run that loses two shards (task 3 cancelled
# while pending, task 1 failing), the merge log naming them, and
# `submit.sh --resume`, whose merged report must equal the one-machine run.
name=resume
res=$work/$name
mkdir -p "$work/players" "$work/elsewhere" "$work/no-merge"
cp "$repo/variants/players/tuned-rules-2.0.ron" "$work/players/tuned.ron"
run=(simulate --games "$(g 80)" --seed 11 --caesar-ai heuristic:players/tuned.ron --pompey-ai heuristic)
sub=("$slurm_dir/submit.sh" --mem 200M --merge-mem 200M)
# WHY EXPECTED COMMAND...: exit 2 with EXPECTED in the output, no shell
# error, no job queued, no $res. (After a failure it cancels what was queued
# and removes $res, so that each case is judged on its own.)
refused() {
    local why=$1 expect=$2 out rc=0 ok=0 me
    shift 2
    me=$(id -un)
    out=$("$@" 2>&1) || rc=$?
    if [ "$rc" != 2 ] || [[ $out != *"$expect"* ]]; then
        fail "$name: $why: not refused as expected (exit $rc; wanted 2 and '$expect'): $(tail -n 3 <<<"$out")"
    elif [[ ${out,,} == *"syntax error"* || ${out,,} == *"arithmetic"* || ${out,,} == *"illegal option"* ]]; then
        fail "$name: $why: a shell error: $out"
    elif [ -n "$(squeue -h -u "$me" -n caesar-shards,caesar-merge 2>/dev/null)" ]; then
        fail "$name: $why: refused, but jobs are queued: $(squeue -h -u "$me" | tr -s ' ' | head -n 3 | tr '\n' ' ')"
    elif [ -e "$res" ]; then
        fail "$name: $why: refused, but $res was left behind: $(find "$res" | tr '\n' ' ')"
    else
        ok=1
        say "refused ($why): $(tail -n 1 <<<"$out" | cut -c1-160)"
    fi
    if [ "$ok" = 0 ]; then
        scancel --quiet -u "$me" -n caesar-shards,caesar-merge 2>/dev/null || true
        wait_jobs "$(squeue -h -u "$me" -o %A | paste -sd, -)" 2>/dev/null || true
        rm -rf "$res"
    fi
}
t0=$(now)
refused "a relative player file, submitted from another folder" "players/tuned.ron" \
    bash -c 'cd "$1" && shift && exec "$@"' - "$work/elsewhere" "${sub[@]}" 4 "$res" "${run[@]}"
refused "--mem 1.5G" "not a Slurm memory size" "${sub[@]}" --mem 1.5G 4 "$res" "${run[@]}"
refused "--time 1h, as sh submit.sh" "not a Slurm time limit" sh "${sub[@]}" --time 1h 4 "$res" "${run[@]}"
refused "--merge-mem 1.5G" "not a Slurm memory size" "${sub[@]}" --merge-mem 1.5G 4 "$res" "${run[@]}"
refused "--merge-mem 64G" "no node has" "${sub[@]}" --merge-mem 64G 4 "$res" "${run[@]}"
# An sbatch that takes the array but refuses the merge step (as a site limit
# that --test-only does not see would): the held array must be cancelled.
cat >"$work/no-merge/sbatch" <<EOF
#!/bin/bash
case " \$* " in
    *" --test-only "*) ;;
    *" --job-name=caesar-merge "*) echo "sbatch: error: Batch job submission failed: refused by check.sh" >&2; exit 1 ;;
esac
exec $(command -v sbatch) "\$@"
EOF
chmod +x "$work/no-merge/sbatch"
refused "the merge step refused once the array was queued" "was cancelled" \
    env PATH="$work/no-merge:$PATH" "${sub[@]}" 4 "$res" "${run[@]}"
report_figures+=("$name: 6 submits refused before queueing in $(secs "$t0" "$(now)") s")

# Tasks 0 and 1 of the first array wait for $work/go, so that tasks 2 and 3
# are still pending; task 1 then fails once. The dry run passes through.
cat >"$work/hold-two" <<EOF
#!/bin/bash
case " \$* " in *" --dry-run "*) exec "$bin" "\$@" ;; esac
if [ "\$1" != merge ] && [[ \${SLURM_ARRAY_TASK_ID:-} == [01] ]]; then
    for _ in \$(seq 600); do [ -e "$work/go" ] && break; sleep 0.1; done
    if [ "\$SLURM_ARRAY_TASK_ID" = 1 ] && mkdir "$work/failed-once" 2>/dev/null; then
        echo "hold-two: task 1 fails on purpose" >&2
        exit 3
    fi
fi
exec "$bin" "\$@"
EOF
chmod +x "$work/hold-two"
t0=$(now)
if out=$(CAESAR_BIN=$work/hold-two sh "${sub[@]}" 4 "$res" "${run[@]}" 2>&1); then
    read -r array merge <<<"$(sed -n 's/^array job \([0-9]*\) .*merge job \([0-9]*\);.*/\1 \2/p' <<<"$out")"
    say "accepted: the corrected submit into $res, as sh submit.sh: array $array, merge $merge"
    for _ in $(seq 200); do [ "$(squeue -h -t R -j "${array}_0,${array}_1" | wc -l)" = 2 ] && break; sleep 0.1; done
    [ "$(state "${array}_3")" = PENDING ] || fail "$name: task ${array}_3 is $(state "${array}_3"), not PENDING"
    scancel "${array}_3"
    touch "$work/go"
    wait_jobs "$array,$merge" || true
    [ "$(state "${array}_1")" = FAILED ] || fail "$name: task ${array}_1 is $(state "${array}_1"), not FAILED"
    [ "$(state "$merge")" = FAILED ] || fail "$name: merge job $merge is $(state "$merge"), not FAILED"
    [ ! -e "$res/merged.json" ] || fail "$name: a merged.json with two shards missing"
    mlog=$res/logs/caesar-merge-$merge.out
    if grep -q "shard-2-of-4.json.*caesar-shards-${array}_1.out" "$mlog" && grep -q "shard-4-of-4.json.*never started" "$mlog" &&
        grep -q -- "--resume $res" "$mlog"; then
        say "the failed merge's log names the missing shards and --resume: $(grep -c . "$mlog") lines"
    else
        fail "$name: the merge log does not explain the failed merge:"
        cat "$mlog" >&2 || true
    fi
    if out=$("$slurm_dir/submit.sh" --resume "$res" 2>&1); then
        read -r array2 merge2 <<<"$(sed -n 's/^array job \([0-9]*\) .*merge job \([0-9]*\);.*/\1 \2/p' <<<"$out")"
        wait_jobs "$array2,$merge2" || true
        t1=$(now)
        [ "$(state "$merge2")" = COMPLETED ] || fail "$name: merge job $merge2 after --resume is $(state "$merge2")"
        tasks=$(cd "$res/logs" && echo caesar-shards-"${array2}"_*.out)
        [ "$tasks" = "caesar-shards-${array2}_1.out caesar-shards-${array2}_3.out" ] ||
            fail "$name: --resume ran other tasks than 1 and 3: $tasks"
        "$bin" "${run[@]}" --threads 2 --json --out "$work/$name.single.json"
        same_report "$name" "$res/merged.json" "$work/$name.single.json"
        out=$("$slurm_dir/submit.sh" --resume "$res" 2>&1) && [[ $out == *"nothing to resume"* ]] ||
            fail "$name: --resume of a complete run: $out"
        report_figures+=("$name: 4 tasks, one cancelled while pending and one failing, then --resume; submit to merged $(secs "$t0" "$t1") s")
    else
        fail "$name: submit.sh --resume failed: $out"
    fi
else
    fail "$name: the corrected submit (sh submit.sh) failed: $out"
fi

# A failed task re-run the wrong way (a one-task array) is refused.
mkdir -p "$res/logs"
wrong=$(sbatch --parsable --array=1 --mem=200M --output="$res/logs/wrong-%A_%a.out" \
    --export=ALL,RESULTS="$res",SHARDS=4,CAESAR_BIN="$bin" "$slurm_dir/shards.sbatch" "${run[@]}")
wrong=${wrong%%;*}
wait_jobs "$wrong" || true
if [ "$(state "${wrong}_1")" != FAILED ] || ! grep -q "auto/4" "$res/logs/wrong-${wrong}_1.out"; then
    fail "$name: a one-task re-run of a 4-task array was not refused ($(state "${wrong}_1"))"
    cat "$res/logs/wrong-${wrong}_1.out" >&2 || true
else
    say "refused: a re-run as a one-task array ($(grep -m1 -o 'error: --shard.*' "$res/logs/wrong-${wrong}_1.out")...)"
fi

# submit.sh refuses a used results directory and resources no node has.
if out=$("$slurm_dir/submit.sh" 2 "$work/simulate" simulate --games 4 2>&1) || [[ $out != *"not empty"* ]]; then
    fail "submit.sh did not refuse a non-empty results directory: $out"
else
    say "refused: $out"
fi
if out=$("$slurm_dir/submit.sh" --cpus 64 2 "$work/big" simulate --games 4 2>&1) || [[ $out != *"no node has"* ]]; then
    fail "submit.sh did not refuse 64 CPUs a task: $out"
else
    say "refused: $out"
fi
# A merge over missing shards is a failed job and leaves no merged report.
mkdir -p "$work/partial"
cp "$work/simulate"/shard-1-of-4.json "$work/simulate"/shard-2-of-4.json "$work/partial/" || true
echo stale >"$work/partial/merged.txt"
if RESULTS=$work/partial SHARDS=4 CAESAR_BIN=$bin "$slurm_dir/merge.sbatch" >"$work/partial.out" 2>&1; then
    fail "merge.sbatch succeeded over 2 of 4 shards"
elif [ -e "$work/partial/merged.txt" ] || [ -e "$work/partial/merged.json" ]; then
    fail "merge.sbatch left a merged report after failing"
else
    say "refused: a merge over 2 of 4 shards ($(grep -m1 '^error' "$work/partial.out" | cut -c1-90)...)"
fi

# --- fair and balance: the merge step is the run's driver -------------------------
# Both submitted at once (their Slurm latencies overlap), the one-machine runs
# made while they wait. fair: 2 tasks, the driver with --merge-cpus 2 and the
# --write-variant only it gets (given between the shards' options); its
# report must equal a one-shard run merged (`--shard 1/1`, then `fair
# --merge`), the shard count in words apart, and so must its variant file.
# balance: 2 tasks of a fixed table and `balance --merge`; the report must
# equal the table played on one machine, its `stopped` line apart.
fair_setup=(--only-named --players "heuristic,random" --budget 2)
fair_shards=(--vary caesar_first_levy_bonus=0..4 --target 30 --tolerance 10 --games "$(g 8)" --first-games "$(g 8)"
    --rounds 0 --check-rounds 0 --seed 5)
fair_run=(fair "${fair_shards[@]:0:6}" "${fair_setup[@]:0:1}" --write-variant="$work/fair-answer.ron"
    "${fair_setup[@]:1}" "${fair_shards[@]:6}")
balance_run=(balance --only-named --players "heuristic,random" --rounds 0 --games "$(g 16)" --first-games "$(g 16)"
    --seed 3 --budget 2)
t0=$(now)
fair_jobs=$(submit --merge-cpus 2 --merge-time 10 2 "$work/fair" "${fair_run[@]}") || fail "fair: submit.sh failed"
balance_jobs=$(submit 2 "$work/balance" "${balance_run[@]}") || fail "balance: submit.sh failed"
mkdir -p "$work/fair.single"
"$bin" fair "${fair_setup[@]}" "${fair_shards[@]}" --shard 1/1 --threads 1 --json \
    --out "$work/fair.single/shard-{shard}.json" >/dev/null
# The merge takes the shards' population: only the budget is its own.
"$bin" fair "${fair_setup[@]:3}" --merge "$work/fair.single/shard-1-of-1.json" --threads 2 \
    --out "$work/fair.single/merged.json" --write-variant "$work/fair.single/answer.ron" >/dev/null
"$bin" "${balance_run[@]}" --threads 2 --json --out "$work/balance.single.json" >/dev/null
for jobs in "$fair_jobs" "$balance_jobs"; do
    [ -z "$jobs" ] || wait_jobs "$(tr ' ' , <<<"$jobs")" || true
done
t1=$(now)
if [ -n "$fair_jobs" ]; then
    read -r array merge <<<"$fair_jobs"
    [ "$(state "$merge")" = COMPLETED ] || fail "fair: the driver, merge job $merge, is $(state "$merge"), not COMPLETED"
    scontrol show job "$merge" | grep -q 'NumCPUs=2 ' || fail "fair: the driver did not get --merge-cpus 2: $(scontrol show job "$merge" | grep -o 'NumCPUs=[0-9]*')"
    grep -q "the driver, 2 threads" "$work/fair/logs/caesar-merge-$merge.out" || fail "fair: the driver did not play with 2 threads"
    same_report fair "$work/fair/merged.json" "$work/fair.single/merged.json" \
        'walk(if type == "string" then sub("^[0-9]+ shards? merged"; "N shards merged") else . end)'
    if [ ! -s "$work/fair/merged.txt" ] || [ -e "$work/fair/merged.txt.tmp" ]; then
        fail "fair: no merged.txt (or a merged.txt.tmp left)"
    fi
    fields=$(tr '\0' '\n' <"$work/fair/run.args")
    if ! grep -qx merge_cpus=2 <<<"$fields" || ! grep -qx merge_time=10 <<<"$fields"; then
        fail "fair: run.args does not record --merge-cpus 2 --merge-time 10 for --resume"
    fi
    if ! out=$("$slurm_dir/submit.sh" --resume "$work/fair" 2>&1) || [[ $out != *"nothing to resume"* ]]; then
        fail "fair: --resume of a complete run: $out"
    fi
    if cmp -s "$work/fair-answer.ron" "$work/fair.single/answer.ron"; then
        say "fair: the driver's --write-variant = the one-machine run's ($(grep -o '(caesar_first_levy_bonus=[0-9]*)' "$work/fair-answer.ron"))"
    else
        fail "fair: the driver's variant file differs from the one-machine run's (or is missing)"
    fi
    # A driver that dies (its time limit, a lost node) after its first
    # checkpoint: the next merge step goes on from that checkpoint, to the
    # report of a driver that never died. By hand (merge.sbatch runs without
    # Slurm), on the run's own shards; the killer waits for merged.json.
    killed=$work/fair.killed
    mkdir -p "$killed"
    cp "$work"/fair/shard-*-of-2.json "$killed/"
    cat >"$work/killer" <<KILLER
#!/bin/bash
"$bin" "\$@" & pid=\$!
while kill -0 \$pid 2>/dev/null && [ ! -s "$killed/merged.json" ]; do sleep 0.02; done
kill -9 \$pid 2>/dev/null && exit 137
wait \$pid
KILLER
    chmod +x "$work/killer"
    if (cd "$work" && RESULTS=$killed SHARDS=2 CAESAR_BIN=$work/killer "$slurm_dir/merge.sbatch" fair \
        "${fair_setup[@]:3}" --write-variant "$killed/answer.ron") >"$killed/first.log" 2>&1; then
        fail "fair: the driver meant to be killed at its first checkpoint ended first (the check proves nothing)"
    elif [ ! -s "$killed/merged.json" ] || [ -e "$killed/merged.txt" ]; then
        fail "fair: the killed driver left no checkpoint (or a merged.txt): $(tail -n 3 "$killed/first.log")"
    elif ! (cd "$work" && RESULTS=$killed SHARDS=2 CAESAR_BIN=$bin "$slurm_dir/merge.sbatch" fair \
        "${fair_setup[@]:3}" --write-variant "$killed/answer.ron") >"$killed/second.log" 2>&1; then
        fail "fair: the merge step after a killed driver failed: $(tail -n 3 "$killed/second.log")"
    elif ! grep -q "fair --resume $killed/driver-checkpoint.json" "$killed/second.log"; then
        fail "fair: the merge step after a killed driver did not go on from its checkpoint: $(head -n 3 "$killed/second.log")"
    else
        same_report "fair (its driver killed, then resumed)" "$killed/merged.json" "$work/fair.single/merged.json" \
            'walk(if type == "string" then sub("^[0-9]+ shards? merged"; "N shards merged") else . end)'
    fi
fi
if [ -n "$balance_jobs" ]; then
    read -r array merge <<<"$balance_jobs"
    [ "$(state "$merge")" = COMPLETED ] || fail "balance: merge job $merge is $(state "$merge"), not COMPLETED"
    same_report balance "$work/balance/merged.json" "$work/balance.single.json" 'del(.stopped)'
    [ "$(jq -r .stopped "$work/balance/merged.json" 2>/dev/null)" = "2 shards merged; no rounds of best responses" ] ||
        fail "balance: merged.json does not say it merged 2 shards"
    [ -s "$work/balance/merged.txt" ] || fail "balance: no merged.txt"
fi
report_figures+=("fair (2 tasks, driver 2 CPUs) and balance (2 tasks) submitted together: submit to both merged $(secs "$t0" "$t1") s")

# Their refusals: exit 2, nothing queued, nothing left in the results directory.
name=fair-balance
res=$work/refused
t0=$(now)
fair_small=(fair "${fair_setup[@]}" "${fair_shards[@]}")
refused "--merge-cpus 0" "--merge-cpus must be a positive number" "${sub[@]}" --merge-cpus 0 2 "$res" "${fair_small[@]}"
refused "--merge-time 1h" "not a Slurm time limit" "${sub[@]}" --merge-time 1h 2 "$res" "${fair_small[@]}"
refused "--merge-cpus 64" "no node has" "${sub[@]}" --merge-cpus 64 2 "$res" "${fair_small[@]}"
refused "fair with --merge-time shorter than its --budget" "shorter than fair's --budget" \
    "${sub[@]}" --merge-time 1 2 "$res" "${fair_small[@]}"
refused "fair --merge given" "leave it out" "${sub[@]}" 2 "$res" "${fair_small[@]}" --merge "$work/fair/shard-1-of-2.json"
refused "fair --shard given" "leave it out" "${sub[@]}" 2 "$res" "${fair_small[@]}" --shard 1/2
refused "fair --write-variant into no folder (the driver's check)" "the merge step's check failed" \
    "${sub[@]}" 2 "$res" "${fair_small[@]}" --write-variant "$work/no-such-folder/answer.ron"
refused "balance with two --variant" "compares two tables" "${sub[@]}" 2 "$res" "${balance_run[@]}" --variant rules-1.1 --variant rules-2.0
refused "balance --resume" "is not sharded" "${sub[@]}" 2 "$res" "${balance_run[@]}" --resume "$work/balance.single.json"
refused "balance with --first-games below --games (the tasks' check)" "the command's own check failed" \
    "${sub[@]}" 2 "$res" balance --only-named --players "heuristic,random" --rounds 0 --games 16 --budget 2
report_figures+=("$name: 10 submits refused before queueing in $(secs "$t0" "$(now)") s")

for f in "${report_figures[@]}"; do say "$f"; done
say "$(secs "$started" "$(now)") s in all"
if [ "$failed" != 0 ]; then
    echo "check.sh: the Slurm recipe FAILED (work directory kept: $work)" >&2
    exit 1
fi
say "the Slurm recipe agrees with the single-machine runs"
