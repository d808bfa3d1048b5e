#!/usr/bin/env python3
"""patches/series: the plugsched series as data (see the file's header).

  series.py check SERIES     every file of the overlay (stdin, one
                             "repo path:kernel path" a line) in exactly
                             one entry, every entry's patch (in patches/)
                             and files there
  series.py plan SERIES      one line per entry: patch, TAB, its files
  series.py kconfig SERIES N the Kconfig of the tree after entry N (from 1):
                             a policy's "config PLUGSCHED_<NAME>" entries
                             come with kernel/sched/plugsched_<name>.c
"""
import glob
import os
import re
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def entries(series):
    """[(patch, [files...])] in series order; globs expanded."""
    out = []
    for n, line in enumerate(open(series), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0] in " \t":
            if not out:
                sys.exit(f"{series}:{n}: a file before any patch: {line.strip()}")
            pat = line.strip()
            found = sorted(os.path.relpath(f, TOP) for f in glob.glob(os.path.join(TOP, pat))
                           if os.path.isfile(f))
            out[-1][1].extend(found or [pat])
        else:
            out.append((line.strip(), []))
    return out


def check(series):
    overlay = [l.split(":")[0] for l in sys.stdin.read().split()]
    errors = []
    seen = {}
    for patch, files in entries(series):
        if not os.path.isfile(os.path.join(TOP, "patches", patch)):
            errors.append(f"{patch}: no such patch in patches/")
        for f in files:
            if f not in overlay:
                errors.append(f"{patch}: {f} is not a file of the overlay")
            if f in seen:
                errors.append(f"{f} is in two entries: {seen[f]} and {patch}")
            seen.setdefault(f, patch)
    for f in overlay:
        if f not in seen:
            errors.append(f"{f} is in no entry of patches/series: no patch adds it")
    for e in errors:
        print(f"series: {e}", file=sys.stderr)
    return 1 if errors else 0


def kconfig_blocks():
    """The Kconfig in blocks: [(symbol or None, text)]."""
    blocks, cur, sym = [], [], None
    for line in open(os.path.join(TOP, "Kconfig")):
        m = re.match(r"(menuconfig|config|choice|endchoice|if|endif|menu|endmenu|comment)\b(\s+(\S+))?",
                     line)
        if m:
            if cur:
                blocks.append((sym, cur))
            cur = []
            sym = m.group(3) if m.group(1) in ("config", "menuconfig") else None
        cur.append(line)
    if cur:
        blocks.append((sym, cur))
    return blocks


def kconfig(series, upto):
    ents = entries(series)
    owner = {}          # policy file -> entry index
    kc = None
    for i, (_, files) in enumerate(ents, 1):
        for f in files:
            owner[f] = i
            if f == "Kconfig":
                kc = i
    out = []
    for sym, text in kconfig_blocks():
        i = kc
        m = re.match(r"PLUGSCHED_(\w+)$", sym or "")
        if m:
            f = f"kernel/sched/plugsched_{m.group(1).lower()}.c"
            i = owner.get(f, kc)
        if i is not None and i <= upto:
            out.append("".join(text))
    sys.stdout.write("".join(out))
    return 0


def main():
    cmd, series = sys.argv[1], sys.argv[2]
    if cmd == "check":
        return check(series)
    if cmd == "plan":
        for patch, files in entries(series):
            print(patch + "\t" + " ".join(files))
        return 0
    if cmd == "kconfig":
        return kconfig(series, int(sys.argv[3]))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
