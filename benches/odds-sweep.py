#!/usr/bin/env python3
"""The exact battle calculator's hardest cases, timed one by one.

    benches/odds-sweep.py [BINARY]      (default: target/release/caesar-workbench)

Every battle has 20 blocks (the most the calculator takes), every block at
full strength, the blocks with the most steps of each side first (Pompey's
before Caesar's, leaders included; Cleopatra left out, 7.52). Over: the
attacker (Caesar or Pompey), how the 20 split between the sides, how many
of each side are reserves (none, half, all but one), Mars' surprise or not,
and rules 1.1 and 2.0. Prints one line per battle (states, wall seconds,
peak memory) and the slowest and largest at the end. Timings belong here,
not in `cargo test`.
"""
import json
import re
import subprocess
import sys
import time

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/caesar-workbench"
SCENARIO = "scenarios/historical.ron"
TOTAL = 20


def roster():
    blocks = {"Caesar": [], "Pompey": []}
    pattern = r'\(side: (\w+), name: "([^"]+)", kind: (\w+), initiative: \w, firepower: \d, steps: (\d)'
    for side, name, kind, steps in re.findall(pattern, open(SCENARIO).read()):
        if kind != "Cleopatra":
            blocks[side].append((int(steps), name))
    return {s: [n for _, n in sorted(b, key=lambda x: -x[0])] for s, b in blocks.items()}


def run(variant, attacker, att, att_res, dfn, dfn_res, surprise):
    args = [
        "/usr/bin/time", "-f", "%e %M", BIN, "battle", "--variant", variant,
        "--attacker", attacker.lower(),
        "--attacking", ",".join(att), "--attacking-reserves", ",".join(att_res),
        "--defending", ",".join(dfn), "--defending-reserves", ",".join(dfn_res),
        "--json",
    ] + (["--surprise"] if surprise else [])
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(args)}\n{out.stderr}")
    seconds, kb = out.stderr.strip().splitlines()[-1].split()
    states = json.loads(out.stdout)["states"]
    return states, float(seconds), int(kb) / 1024


def main():
    blocks = roster()
    results = []
    started = time.time()
    for variant in ["rules-2.0", "rules-1.1"]:
        for attacker in ["Pompey", "Caesar"]:
            defender = "Caesar" if attacker == "Pompey" else "Pompey"
            for n_att in range(4, TOTAL - 3, 2):
                n_def = TOTAL - n_att
                for r_att in sorted({0, n_att // 2, n_att - 1}):
                    for r_def in sorted({0, n_def // 2, n_def - 1}):
                        for surprise in [False, True]:
                            a = blocks[attacker][:n_att]
                            d = blocks[defender][:n_def]
                            states, secs, mb = run(
                                variant, attacker,
                                a[: n_att - r_att], a[n_att - r_att:],
                                d[: n_def - r_def], d[n_def - r_def:], surprise,
                            )
                            case = (f"{variant} {attacker} {n_att - r_att}+{r_att} "
                                    f"vs {n_def - r_def}+{r_def}{' surprise' if surprise else ''}")
                            print(f"{case:45} {states:>9} states {secs:6.2f} s {mb:7.1f} MB", flush=True)
                            results.append((secs, mb, states, case))
    slowest = max(results)
    largest = max(results, key=lambda r: r[1])
    print(f"\n{len(results)} battles in {time.time() - started:.0f} s")
    print(f"slowest: {slowest[3]}: {slowest[0]:.2f} s, {slowest[2]} states, {slowest[1]:.1f} MB")
    print(f"most memory: {largest[3]}: {largest[1]:.1f} MB, {largest[2]} states, {largest[0]:.2f} s")


main()
