#!/usr/bin/env python3
"""Runs pypto-lib's single-card harness models on libpto, one after another.

A harness model is a file under models/ or examples/ with an
`if __name__ == "__main__":` block, a call of golden's `run` or `run_jit`, and
no `# ci: devices=2` (the two-card models run under mpiexec, docs/pypto.md).
Each runs as `python -m pto.pypto MODEL --platform P --workers W --json ...`
under a time limit, one at a time; its verdict, the exit status, the wall
time, the load average, libpto's run and the torch golden's seconds (wall,
then the process's CPU: "-" where the model did not get that far) go to
OUT/summary.tsv (one line a model, tab-separated, the front end's sentence
last) and its
output to OUT/NAME.log, its JSON to OUT/NAME.json. A model with a line in
summary.tsv for the platform is skipped (a sweep resumes where it stopped).

    tools/pypto-sweep.py --pypto-lib ~/pypto-lib --out sweep/ [--timeout 600] [MODEL ...]
    tools/pypto-sweep.py --pypto-lib ~/pypto-lib --out sweep/ --table

--table prints summary.tsv's lines as docs/pypto.md's table rows (each
model's last line; kernels, largest error and the outputs' names from its
JSON; times as CPU seconds, wall in parentheses) and runs nothing.

With --compare-workers N each model's orchestration runs again on N workers
after its run on --workers (the front end's --compare-workers: the same
inputs, each run judged); --workers-table prints, per model, each run's
wall and CPU seconds, its verdict and the first run's wall time over the
others'.

With --board each model runs in libpto's board mode (the front end's --board:
a rule pto-isa's implementations leave unchecked warns instead of refusing);
its lines are kept apart from the default runs' (platform "a5 board").

The environment gives the front end what it needs (docs/pypto.md): PyPTO and
torch in the Python that runs this script (or --python), libpto's package on
PYTHONPATH, PTO_RUNTIME_LIBRARY.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

HARNESS_CALL = re.compile(r"\brun(_jit)?\(")


def harness_models(root):
    """The single-card harness models under root, sorted."""
    found = []
    for top in ("examples", "models"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if not f.endswith(".py"):
                    continue
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                if ("__main__" in text and HARNESS_CALL.search(text)
                        and "devices=2" not in text):
                    found.append(os.path.relpath(path, root))
    return sorted(found)


def already_run(summary, platform):
    done = set()
    if os.path.exists(summary):
        with open(summary, encoding="utf-8") as fh:
            for line in fh:
                fields = line.rstrip("\n").split("\t")
                if len(fields) > 1 and fields[1] == platform:
                    done.add(fields[0])
    return done


def verdict(log, rc, timed_out):
    """PASS, FAIL (the front end's verdict), refused (the front end's
    sentence, else the last line of an error out of PyPTO or the model) or
    timeout."""
    if timed_out:
        return "timeout", ""
    lines = [l.strip() for l in log.splitlines() if l.strip()]
    if rc == 0:
        # In board mode the verdict line counts the warnings by rule.
        return "PASS", next((l for l in lines if l.startswith("pto.pypto:") and "board mode" in l), "")
    if rc == 1 and any(l.startswith("pto.pypto:") and ": FAIL (" in l for l in lines):
        return "FAIL", next((l for l in lines if "FAIL" in l and "ratio" not in l), "")
    said = next((l for l in reversed(lines) if l.startswith("pto.pypto:") and "error" in l), "")
    said = said or next((l for l in reversed(lines) if l.startswith("Message:")), "")
    said = said or next((l for l in reversed(lines) if "Error" in l.split(":")[0]), "")
    return "refused", said or (lines[-1] if lines else "")


def run_name(model, label):
    """The stem of a model's files in OUT: models/a/b.py, "a5 board" ->
    models_a_b_a5_board."""
    return model.replace("/", "_")[:-3] + "_" + label.replace(" ", "_")


def first_result(json_path):
    """The front end's JSON's first harness call ({} where the run wrote none)."""
    try:
        with open(json_path, encoding="utf-8") as fh:
            return json.load(fh)[0]
    except (OSError, ValueError, IndexError):
        return {}


def stage_times(json_path):
    """The run's and the golden's wall and CPU seconds from the front end's
    JSON ("-" for each the run did not reach)."""
    result = first_result(json_path)
    wall, cpu = result.get("times", {}), result.get("cpu_times", {})
    return [f"{d[k]:.3f}" if k in d else "-" for d in (wall, cpu) for k in ("run", "golden")]


def last_lines(out):
    """summary.tsv's last line per (model, label), as lists of fields."""
    last = {}
    with open(os.path.join(out, "summary.tsv"), encoding="utf-8") as fh:
        for line in fh:
            f = line.rstrip("\n").split("\t")
            if len(f) >= 11:
                last[(f[0], f[1])] = f
    return last


def workers_table(out):
    """Per model with reruns: each run's workers, wall (CPU) seconds and
    verdict, and the speedup (the first run's wall over each rerun's)."""
    rows = ["| model | platform | result | runs: workers, wall s (CPU s) | speedup |", "|---|---|---|---|---|"]
    for (model, label), f in sorted(last_lines(out).items()):
        result = first_result(os.path.join(out, run_name(model, label) + ".json"))
        reruns = result.get("reruns") or []
        if not reruns or "run" not in result.get("times", {}):
            continue
        wall, cpu = result["times"]["run"], result["cpu_times"]["run"]
        runs = [f"{result['workers']}: {wall:.3f} ({cpu:.3f})"]
        runs += [f"{r['workers']}: {r['run']:.3f} ({r['run_cpu']:.3f}){'' if r['passed'] else ' FAIL'}" for r in reruns]
        speedup = ", ".join(f"{wall / r['run']:.2f}x" for r in reruns)
        rows.append(f"| {model} | {label} | {f[2]} | {'; '.join(runs)} | {speedup} |")
    print("\n".join(rows))


def table(out):
    """docs/pypto.md's rows for the sweep in out: model, platform, kernels,
    result, largest abs error (and its output), libpto's run and the golden's
    CPU seconds (wall in parentheses), the cause of a row that did not PASS."""
    last = last_lines(out)
    rows = ["| model | platform | kernels | result | largest abs error | libpto run | torch golden (1 thread) | cause |",
            "|---|---|---|---|---|---|---|---|"]
    for (model, label), f in sorted(last.items()):
        result = first_result(os.path.join(out, run_name(model, label) + ".json"))
        errors = result.get("max_errors", {})
        worst = max(errors.items(), key=lambda kv: kv[1][0], default=None)
        error = f"{worst[1][0]:.3g} (`{worst[0]}`)" if worst else ""
        run = f"{f[8]} s ({f[6]} s)" if f[8] != "-" else ""
        golden = f"{f[9]} s ({f[7]} s)" if f[9] != "-" else ""
        cause = "" if f[2] == "PASS" and not f[10] else f[10].replace("|", "\\|")
        rows.append(f"| {model} | {label} | {result.get('kernels', '')} | {f[2]} | {error} | {run} | {golden} | {cause} |")
    print("\n".join(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pypto-lib", required=True, help="the pypto-lib checkout")
    ap.add_argument("--out", required=True, help="directory of the logs and summary.tsv")
    ap.add_argument("--platform", default="a5", choices=["a5", "a2a3"])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--order", default="all", choices=["all", "pto2"],
                    help="the tasks' orders (the front end's --order)")
    ap.add_argument("--compare-workers", default=None, metavar="N[,N...]",
                    help="run each orchestration again on these worker counts (the front end's option)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds a model (default 600)")
    ap.add_argument("--python", default=sys.executable, help="the Python with PyPTO and torch")
    ap.add_argument("--board", action="store_true",
                    help="run in libpto's board mode (the front end's --board)")
    ap.add_argument("--list", action="store_true", help="print the models and stop")
    ap.add_argument("--table", action="store_true", help="print OUT's summary as docs/pypto.md's rows and stop")
    ap.add_argument("--workers-table", action="store_true",
                    help="print OUT's runs and reruns per model (--compare-workers) and stop")
    ap.add_argument("models", nargs="*", help="models to run (default: every harness model)")
    args = ap.parse_args()

    root = os.path.abspath(args.pypto_lib)
    models = args.models or harness_models(root)
    if args.list:
        print("\n".join(models))
        print(f"{len(models)} models", file=sys.stderr)
        return 0
    if args.table:
        table(args.out)
        return 0
    if args.workers_table:
        workers_table(args.out)
        return 0
    os.makedirs(args.out, exist_ok=True)
    out = os.path.abspath(args.out)
    summary = os.path.join(out, "summary.tsv")
    label = args.platform + (" board" if args.board else "")
    done = already_run(summary, label)
    env = dict(os.environ, PYPTO_GOLDEN_NUM_THREADS="1", PYPTO_LOG_LEVEL="warn")
    for model in models:
        if model in done:
            continue
        name = run_name(model, label)
        cmd = [args.python, "-m", "pto.pypto", model, "--platform", args.platform,
               "--workers", str(args.workers), "-o", os.path.join(out, name + ".build"),
               "--json", os.path.join(out, name + ".json")] + (["--board"] if args.board else [])
        cmd += ["--compare-workers", args.compare_workers] if args.compare_workers else []
        cmd += ["--order", args.order] if args.order != "all" else []
        if os.path.exists(os.path.join(out, name + ".json")):
            os.remove(os.path.join(out, name + ".json"))  # a stopped sweep's, not this run's
        start = time.time()
        timed_out = False
        try:
            run = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True,
                                 timeout=args.timeout)
            rc, log = run.returncode, run.stdout + run.stderr
        except subprocess.TimeoutExpired as e:
            timed_out, rc = True, -1
            log = (e.stdout or b"").decode(errors="replace") + (e.stderr or b"").decode(errors="replace")
        wall = time.time() - start
        with open(os.path.join(out, name + ".log"), "w", encoding="utf-8") as fh:
            fh.write(log)
        result, why = verdict(log, rc, timed_out)
        load = open("/proc/loadavg").read().split()[0]
        times = stage_times(os.path.join(out, name + ".json"))
        with open(summary, "a", encoding="utf-8") as fh:
            fh.write("\t".join([model, label, result, str(rc), f"{wall:.0f}", load] + times + [why]) + "\n")
        print(f"{model} {label}: {result} ({wall:.0f} s, load {load}; run, golden: {times[0]}, {times[1]} s wall,"
              f" {times[2]}, {times[3]} s CPU) {why}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
