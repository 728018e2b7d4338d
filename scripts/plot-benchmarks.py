#!/usr/bin/env python3
"""Draws the figures of docs/benchmarks.md from pmcount-bench's JSON lines (matplotlib, SVG).

    scripts/plot-benchmarks.py [--data docs/benchmarks] [--out docs/benchmarks]

time_vs_n.svg: seconds against n, one line per case, engine, device, arithmetic and thread count
(every measurement line of the files *time_vs_n*.jsonl and hafnian_*.jsonl; log scale; a
thewalrus run stopped by --thewalrus-timeout is drawn as an open marker at its lower bound).
estimator_error.svg: |estimate − truth| / truth against seconds, per estimator and grid, from
estimators_*.jsonl (pmcount-bench estimators), with each run's reported relative standard error
as a line for comparison.
"""

import argparse
import collections
import json
import pathlib

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams["svg.hashsalt"] = "pmcount"  # the same SVG for the same data


def lines(paths):
    for path in paths:
        for text in path.read_text().splitlines():
            if text.strip():
                yield json.loads(text)


def label(m):
    device = "GPU" if m.get("device", "cpu") != "cpu" else "CPU"
    return (f"{m['case']}: {m['engine']} ({device}, {m['arithmetic']}, "
            f"{m['threads']} thread{'s' if m['threads'] != 1 else ''})")


def time_vs_n(data, out):
    paths = sorted(data.glob("*time_vs_n*.jsonl")) + sorted(data.glob("hafnian_*.jsonl"))
    series = collections.defaultdict(dict)
    stopped = collections.defaultdict(dict)
    for m in lines(paths):
        if "engine" not in m or "seconds" not in m or m.get("role") == "reference":
            continue
        target = stopped if m.get("timed_out") else series
        target[label(m)][m["n"]] = m["seconds"]
    fig, ax = plt.subplots(figsize=(9, 6))
    markers = "osD^v<>ph*"
    for k, name in enumerate(sorted(series)):
        points = sorted(series[name].items())
        line, = ax.plot([n for n, _ in points], [s for _, s in points],
                        marker=markers[k % len(markers)], color=plt.cm.tab20(k % 20), label=name)
        if name in stopped:
            bound = sorted(stopped[name].items())
            ax.plot([n for n, _ in bound], [s for _, s in bound], marker="o", linestyle="none",
                    markerfacecolor="none", color=line.get_color())
    for name in sorted(set(stopped) - set(series)):
        bound = sorted(stopped[name].items())
        ax.plot([n for n, _ in bound], [s for _, s in bound], marker="o", linestyle="none",
                markerfacecolor="none", label=name + " (stopped: at least)")
    ax.set_yscale("log")
    ax.set_xlabel("n (matrix order)")
    ax.set_ylabel("seconds (median)")
    ax.set_title("pmcount-bench: time against n (open markers: stopped runs, lower bounds)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(out / "time_vs_n.svg")
    plt.close(fig)


def estimator_error(data, out):
    runs = [m for m in lines(sorted(data.glob("estimators_*.jsonl")))
            if "log10_value" in m and "log10_truth" in m]
    if not runs:
        return
    fig, ax = plt.subplots(figsize=(8, 5.5))
    groups = collections.defaultdict(list)
    for m in runs:
        groups[f"{m['case']}, {m['estimator']} ({m['backend']})"].append(m)
    for name in sorted(groups):
        ms = sorted(groups[name], key=lambda m: m["seconds"])
        errors = [abs(10 ** (m["log10_value"] - m["log10_truth"]) - 1) for m in ms]
        points = ax.scatter([m["seconds"] for m in ms], errors, label=name + ": |error|", s=18)
        ax.plot([m["seconds"] for m in ms], [m["rel_std_error"] for m in ms], linestyle="--",
                color=points.get_facecolor()[0], label=name + ": reported std. error")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("seconds")
    ax.set_ylabel("relative error")
    ax.set_title("Estimators against Kasteleyn's count (pmcount-bench estimators)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "estimator_error.svg")
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = pathlib.Path(__file__).resolve().parents[1]
    parser.add_argument("--data", type=pathlib.Path, default=root / "docs" / "benchmarks")
    parser.add_argument("--out", type=pathlib.Path, default=root / "docs" / "benchmarks")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    time_vs_n(args.data, args.out)
    estimator_error(args.data, args.out)
    for svg in sorted(args.out.glob("*.svg")):
        print(svg)


if __name__ == "__main__":
    main()
