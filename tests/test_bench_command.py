"""`feudbot bench` runs the bench scripts and gathers their headline figures (times not judged)."""

from __future__ import annotations

import io
import json

import pytest

from bot.__main__ import main
from bot.benchmark import run_bench
from bot.games import GAMES


def test_bench_collects_the_figures_of_a_script(capsys: pytest.CaptureFixture[str]) -> None:
    """One script: its figures (every game's board) come back as a table and as JSON."""
    assert main(["bench", "--only", "render"]) == 0
    out = capsys.readouterr().out
    table, _, data = out.partition("\n\n")
    assert table.startswith("| figure | value |")
    rows = json.loads(data)
    names = {row["figure"] for row in rows}
    for key in GAMES:
        assert {f"render {key} board (late game)", f"PNG size {key} board (late game)"} <= names
    assert all(row["script"] == "bench_render.py" for row in rows)
    assert all(row["value"] > 0 for row in rows)
    assert len(table.splitlines()) == len(rows) + 2


def test_bench_refuses_an_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown name: status 2, one line on stderr naming the choices, nothing on stdout."""
    assert main(["bench", "--only", "nosuch"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "unknown benchmark 'nosuch'; choose from lexicon" in captured.err


@pytest.mark.parametrize("only", ["", ",", " , "])
def test_bench_refuses_an_only_that_names_nothing(capsys, only) -> None:
    """`--only ""` used to run every benchmark: refused with the names to choose from."""
    assert main(["bench", "--only", only]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"feudbot: --only {only!r} names no benchmark; name some of "
        "lexicon,movegen,render,storage,service,smartfeud,rummikub,numfeud,nmbr9\n"
    )


def test_bench_exits_1_when_a_benchmark_fails(tmp_path) -> None:
    """A script that fails: the others' figures are still printed, but the status is 1."""
    (tmp_path / "bench_lexicon.py").write_text(
        "import sys\nprint('lexicon: no word list')\nsys.exit(3)\n", encoding="utf-8"
    )
    (tmp_path / "bench_render.py").write_text(
        "import json, os\n"
        "with open(os.environ['FEUDBOT_BENCH_OUT'], 'a') as out:\n"
        "    out.write(json.dumps({'figure': 'f', 'value': 2.0, 'unit': 'ms'}) + '\\n')\n",
        encoding="utf-8",
    )
    out, log = io.StringIO(), io.StringIO()
    assert run_bench(["lexicon", "render"], out, log, folder=tmp_path) == 1
    assert "| f | 2.0 | ms |" in out.getvalue()
    assert "lexicon: no word list" in log.getvalue()
    assert log.getvalue().endswith(
        "feudbot bench: failed: bench_lexicon.py (exit status 3); their figures are missing\n"
    )
