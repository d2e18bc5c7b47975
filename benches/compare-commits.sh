#!/usr/bin/env bash
# Games per second and instructions per game of two commits, side by side.
#
#   benches/compare-commits.sh [BASE [HEAD]]     (default: origin/main or HEAD~1, and the work tree)
#
# BASE and HEAD are commits, or release binaries already built (a path to an
# executable file is used as it is).
#
# Builds each commit's release binary in its own worktree under
# target/compare/ (dependencies reused from this checkout's target/), then for
# each pairing (heuristic, random, `search:16` and `mcts:16` mirrors, rules
# 2.0, one thread; the searches' playouts are the heuristic's games):
#   - CPU seconds of N games, the two binaries alternated R times (the
#     machine is shared: alternation puts both under the same load; the
#     median is quoted);
#   - instructions per game from valgrind's callgrind (stable under load),
#     start-up subtracted (a 1-game run).
# Prints a table with the ratios. Needs valgrind for the instruction counts
# (skipped with a note when it is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
base=${1:-$(git rev-parse -q --verify origin/main || git rev-parse HEAD~1)}
head=${2:-WORKTREE}
runs=${RUNS:-5}
out=target/compare
mkdir -p "$out"

build() { # commit -> path of its binary
    local commit=$1
    if [ -f "$commit" ] && [ -x "$commit" ]; then
        realpath "$commit"
        return
    fi
    if [ "$commit" = WORKTREE ]; then
        cargo build --release --quiet >&2
        echo "$PWD/target/release/caesar-workbench"
        return
    fi
    local sha dir
    sha=$(git rev-parse --short "$commit")
    dir=$out/$sha
    if [ ! -x "$dir/bin" ]; then
        rm -rf "$dir/src"
        git worktree add --force --detach "$dir/src" "$sha" >&2
        # One target directory for every compared commit, seeded from this
        # checkout's: dependencies build once.
        if [ ! -d "$out/target/release" ] && [ -d target/release ]; then
            mkdir -p "$out/target" && cp -r target/release "$out/target/"
        fi
        (cd "$dir/src" && CARGO_TARGET_DIR="$root/$out/target" cargo build --release --quiet >&2)
        cp "$out/target/release/caesar-workbench" "$dir/bin"
        git worktree remove --force "$dir/src" >&2
    fi
    echo "$PWD/$dir/bin"
}

a=$(build "$base")
b=$(build "$head")
echo "base: $base ($a)"
echo "head: $head ($b)"

cpu() { # bin games ai -> user+sys seconds
    /usr/bin/time -f "%U %S" "$1" simulate --variant rules-2.0 --threads 1 --seed 7 \
        --games "$2" --caesar-ai "$3" --pompey-ai "$3" --json 2>&1 >/dev/null | tail -1 |
        awk '{print $1 + $2}'
}
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
instr() { # bin games ai -> instructions
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" simulate --variant rules-2.0 \
        --threads 1 --seed 7 --games "$2" --caesar-ai "$3" --pompey-ai "$3" --json 2>&1 >/dev/null |
        awk '/refs:/ {gsub(",", "", $NF); print $NF}'
}

printf '\n| pairing | games | base games/s | head games/s | ratio | base instr/game | head instr/game | ratio |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for spec in "heuristic 3000 200" "random 20000 2000" "search:16 12 3" "mcts:16 8 3"; do
    set -- $spec
    ai=$1 games=$2 cg_games=$3
    ta=() tb=()
    for _ in $(seq "$runs"); do
        ta+=("$(cpu "$a" "$games" "$ai")")
        tb+=("$(cpu "$b" "$games" "$ai")")
    done
    ma=$(printf '%s\n' "${ta[@]}" | median)
    mb=$(printf '%s\n' "${tb[@]}" | median)
    ga=$(awk -v g="$games" -v t="$ma" 'BEGIN {r = g / t; printf (r < 100 ? "%.2f" : "%.0f"), r}')
    gb=$(awk -v g="$games" -v t="$mb" 'BEGIN {r = g / t; printf (r < 100 ? "%.2f" : "%.0f"), r}')
    r=$(awk -v x="$ga" -v y="$gb" 'BEGIN {printf "%.2fx", y / x}')
    if command -v valgrind >/dev/null; then
        ia=$(( ($(instr "$a" "$cg_games" "$ai") - $(instr "$a" 1 "$ai")) / (cg_games - 1) ))
        ib=$(( ($(instr "$b" "$cg_games" "$ai") - $(instr "$b" 1 "$ai")) / (cg_games - 1) ))
        ri=$(awk -v x="$ia" -v y="$ib" 'BEGIN {printf "%.2fx", y / x}')
    else
        ia="(no valgrind)" ib="" ri=""
    fi
    printf '| %s mirror | %s | %s | %s | %s | %s | %s | %s |\n' "$ai" "$games" "$ga" "$gb" "$r" "$ia" "$ib" "$ri"
done
