"""How long the text renderers take on 64 KB of pathological input (issue 14).

``autop`` (descriptions and excerpts), ``plain_text`` (JSON-LD) and ``clean_line`` (address
fields) must stay linear in the text's length: every case below renders in milliseconds.
Run: ``.venv/bin/python bench/text_bench.py``; it prints the slowest of 5 runs per case and
exits 1 when a case takes longer than ``--limit-ms`` (default 100).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from eventcal.resources.text import autop, clean_line, plain_text

SIZE = 64 * 1024

CASES: dict[str, str] = {
    "pre openings without a close": "<pre " * (SIZE // 5),
    "many pre blocks": "<pre>a\n\nb</pre>" * (SIZE // 15),
    "angle brackets without a close": "<" * SIZE,
    "open tags without a close": "<a " * (SIZE // 3),
    "blank lines": "\n \n" * (SIZE // 3),
    "a newline then spaces": ("\n" + " " * 1000 + "x") * (SIZE // 1002),
    "placeholder look-alikes": "<pre-kept-0>" * (SIZE // 12),
    "plain prose": ("Lorem ipsum dolor sit amet. " * 3 + "\n") * (SIZE // 85),
}
RENDERERS: dict[str, Callable[[str], str]] = {
    "autop": autop,
    "plain_text": plain_text,
    "clean_line": clean_line,
}


def slowest(render: Callable[[str], str], text: str, runs: int = 5) -> float:
    worst = 0.0
    for _ in range(runs):
        started = time.perf_counter()
        render(text)
        worst = max(worst, time.perf_counter() - started)
    return worst * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit-ms", type=float, default=100.0)
    limit = parser.parse_args().limit_ms
    failed = False
    for case, text in CASES.items():
        for name, render in RENDERERS.items():
            ms = slowest(render, text)
            mark = "" if ms <= limit else "  TOO SLOW"
            failed = failed or bool(mark)
            print(f"{name:>10}  {case:<32} {len(text):>6} chars  {ms:8.2f} ms{mark}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
