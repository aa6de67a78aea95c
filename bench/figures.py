"""Shared by the bench scripts: report a headline figure for `feudbot bench`.

```python
from figures import figure
figure("word AI best move, 1 blank", p50_ms, "ms", goal="<= 50", stat="p50")
```

Each call appends one JSON line to the file named by ``FEUDBOT_BENCH_OUT`` when it is set
(`feudbot bench` sets it for every script it runs); run by hand, a script just prints as usual.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

OUT_VARIABLE = "FEUDBOT_BENCH_OUT"


def figure(name: str, value: float, unit: str, *, goal: str = "", stat: str = "") -> None:
    """Record one headline figure (a no-op unless ``FEUDBOT_BENCH_OUT`` is set)."""
    out = os.environ.get(OUT_VARIABLE)
    if not out:
        return
    row = {"figure": name, "value": round(float(value), 4), "unit": unit, "stat": stat}
    if goal:
        row["goal"] = goal
    with Path(out).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
