"""python/examples/tour.ipynb run from top to bottom by nbclient (a Jupyter kernel of this
environment), as a reader runs it: no cell fails, and the outputs are what a notebook shows
of cgl's answers: values as text, a table as HTML beside its SVG picture, a game value's
thermograph and a position's picture as SVG, a failed expectation as HTML."""

import os
from pathlib import Path

import pytest

TOUR = Path(__file__).resolve().parents[1] / "examples" / "tour.ipynb"


def test_the_tour_runs_and_shows_svg():
    try:
        import nbclient
        import nbformat
    except ImportError:
        if os.environ.get("CGL_REQUIRE_PEERS"):
            pytest.fail("nbclient is not installed (CGL_REQUIRE_PEERS=1)")
        pytest.skip("nbclient is not installed: pip install nbclient ipykernel to run the tour")
    nb = nbformat.read(TOUR, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(TOUR.parent)}}
    ).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    data = [o.get("data", {}) for o in outputs]
    plain = [d.get("text/plain", "") for d in data]
    # grundy(Kayles(10)) is 2 (Kayles: 0 1 2 3 1 4 3 2 1 4 2 6 ...).
    assert plain[0] == "2"
    svgs = [d["image/svg+xml"] for d in data if "image/svg+xml" in d]
    assert any('class="thermograph"' in s and 'data-temperature="1.25"' in s for s in svgs)
    assert any("<tspan" in s and ". X ." in s for s in svgs)  # the tic-tac-toe board
    tables = [d for d in data if "text/html" in d and "<table>" in d["text/html"]]
    assert tables and "image/svg+xml" in tables[0]
    assert tables[0]["text/html"].count("<tr>") == 37
    assert any("Fraction(1, 3)" in p for p in plain)
    html = [d["text/html"] for d in data if "text/html" in d]
    assert any("failed" in h and "exercise.game:2" in h for h in html)
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "cgl::syntax::" in printed
