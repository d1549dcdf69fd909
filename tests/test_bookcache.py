"""bookbuild/bookcache.py as the figure workers use it: memoized computations are shared between
processes without changing a figure, and two processes asking for the same call compute it once.

Each check runs in fresh interpreters (memoize replaces attnkit functions in the process that
calls it; the test process keeps its own attnkit untouched).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from book import ROOT
from importlib import import_module

bookcache = import_module("bookbuild.bookcache")


def python(code: str, cache, **popen) -> subprocess.Popen:
    env = dict(os.environ, BOOK_CACHE=str(cache), PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)


def test_two_processes_asking_for_the_same_call_compute_it_once(tmp_path):
    """The two languages of a parallel build draw the same figures at the same moment: the
    second must wait for the first's result, not compute it again (the lock in memo)."""
    calls = tmp_path / "calls.txt"
    code = f"""
        import time
        from bookbuild import bookcache
        def slow(x):
            with open({str(calls)!r}, "a") as f:
                f.write("called\\n")
            time.sleep(1.5)
            return x * 2
        print(bookcache.memo(slow, 21))
    """
    jobs = [python(code, tmp_path / "cache") for _ in range(2)]
    outputs = [job.communicate(timeout=120) for job in jobs]
    assert [job.returncode for job in jobs] == [0, 0], [err for _, err in outputs]
    assert [out.strip() for out, _ in outputs] == ["42", "42"]
    assert calls.read_text().count("called") == 1, "both processes computed the memoized call"


@pytest.mark.slow   # two fresh interpreters drawing a figure three times: ~8 s (make check leaves it to make test)
def test_memoized_figure_workers_draw_the_same_bytes(tmp_path):
    """A figure drawn with memoized computations (as the data step's workers draw) is exactly
    render_svg's bytes, on a miss and on a hit; ch3-softmax-saturation calls two of them."""
    assert "attnkit.measure.scaling_experiment" in bookcache.MEMOIZED
    code = """
        import sys
        from bookbuild import bookcache
        from attnkit.figures import render_svg
        plain = render_svg("ch3-softmax-saturation", "en")
        names = ("attnkit.measure.scaling_experiment", "attnkit.measure.random_scores")
        bookcache.memoize(names)
        miss = render_svg("ch3-softmax-saturation", "en")
        hit = render_svg("ch3-softmax-saturation", "en")
        import attnkit.measure
        print(plain == miss == hit, hasattr(attnkit.measure.scaling_experiment, "__wrapped__"),
              len(list(bookcache.CACHE.glob("memo/*/*.pickle"))) > 0)
    """
    job = python(code, tmp_path / "cache")
    out, err = job.communicate(timeout=300)
    assert job.returncode == 0, err[-3000:]
    assert out.split() == ["True", "True", "True"], (out, err[-2000:])


def test_unmemoize_gives_every_name_its_function_back():
    import attnkit.measure
    import attnkit.figures.ch3 as ch3   # imports a memoized function by name

    plain = attnkit.measure.scaling_experiment
    held = {name: value for name, value in vars(ch3).items() if value is plain}
    bookcache.memoize(["attnkit.measure.scaling_experiment"])
    try:
        assert getattr(attnkit.measure.scaling_experiment, "_memoized", False)
        assert all(getattr(vars(ch3)[name], "_memoized", False) for name in held)
    finally:
        bookcache.unmemoize()
    assert attnkit.measure.scaling_experiment is plain
    assert all(vars(ch3)[name] is plain for name in held)


@pytest.mark.parametrize("name", ["attnkit.figures.ch3.qk_variance", "numpy.linalg.norm", "attnkit.measure.no_such"])
def test_memoize_accepts_only_attnkit_functions_outside_the_figures(name):
    """memo's key leaves attnkit/figures/ out: memoizing a figure module's function would let an
    edited figure reuse a stale result."""
    with pytest.raises((ValueError, AttributeError)):
        bookcache.memoize([name])


def test_the_memoized_names_are_attnkit_functions():
    import importlib

    for name in bookcache.MEMOIZED:
        module, _, attr = name.rpartition(".")
        assert module.startswith("attnkit.") and not module.startswith("attnkit.figures"), name
        fn = getattr(importlib.import_module(module), attr)
        assert callable(fn) and fn.__module__ == module, name


def test_a_default_given_or_left_out_is_one_call(tmp_path):
    """The figures call train_two_heads(start), the lab train_two_heads(start, steps=800, lr=5.0,
    seed=3): the same call, so one entry. A different value is another call; a memo of a
    memoized function (a page's memo after memoize) computes once, without waiting on itself."""
    calls = tmp_path / "calls.txt"
    code = f"""
        from bookbuild import bookcache
        def train(start, steps=800, lr=5.0, seed=3):
            with open({str(calls)!r}, "a") as f:
                f.write(f"{{start}} {{seed}}\\n")
            return (start, steps, lr, seed)
        a = bookcache.memo(train, "same")
        b = bookcache.memo(train, "same", steps=800, lr=5.0, seed=3)
        c = bookcache.memo(train, "same", 800, 5.0, 3)
        d = bookcache.memo(train, "same", seed=4)
        import functools
        wrapped = functools.wraps(train)(functools.partial(bookcache.memo, train))
        wrapped._memoized = True
        e = bookcache.memo(wrapped, "random")
        print(a == b == c, d[3], e[0])
    """
    job = python(code, tmp_path / "cache")
    out, err = job.communicate(timeout=120)
    assert job.returncode == 0, err[-3000:]
    assert out.split() == ["True", "4", "random"], (out, err)
    assert calls.read_text().splitlines() == ["same 3", "same 4", "random 3"]


def test_the_labs_kernels_memoize_and_merge_printed_lines(tmp_path):
    """What bookbuild/labs.py writes for the labs works: its IPython startup file, run as IPython runs it
    in each kernel, memoizes MEMOIZED with this repository's attnkit first on the path; its
    nbconvert config survives mkdocs-jupyter's own settings, so ExecutePreprocessor merges a
    cell's printed lines into one output (a lab prints the same page however fast it prints)."""
    code = f"""
        import json, os, sys
        sys.path.insert(0, {str(ROOT)!r})
        from bookbuild import labs
        labs.configure()
        startup = os.path.join(os.environ["IPYTHONDIR"], "profile_default", "startup", "00-book-memo.py")
        namespace = {{}}
        exec(compile(open(startup).read(), startup, "exec"), namespace)
        import attnkit.heads
        from mkdocs_jupyter.nbconvert2 import get_nbconvert_app
        from mkdocs_jupyter.preprocessors import SubCell
        import nbformat
        from nbconvert import HTMLExporter
        app = get_nbconvert_app(execute=True, allow_errors=False)
        exporter = HTMLExporter(config=app.config, preprocessors=[SubCell])   # as mkdocs-jupyter makes it
        # a cell that prints two lines with a pause between them (two stream messages from the kernel)
        cell = 'import sys, time\\nprint("one"); sys.stdout.flush(); time.sleep(0.5)\\nprint("two")'
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)])
        html, _ = exporter.from_notebook_node(notebook)
        print(json.dumps([getattr(attnkit.heads.train_two_heads, "_memoized", False),
                          sys.path[0] == {str(ROOT)!r}, attnkit.heads.__file__.startswith({str(ROOT)!r}),
                          sorted(k for k in namespace if not k.startswith("__")),
                          html.count("<pre>one\\ntwo\\n</pre>"), html.count("<pre>one\\n</pre>")]))
    """
    job = python(code, tmp_path / "cache")
    out, err = job.communicate(timeout=120)
    assert job.returncode == 0, err[-3000:]
    assert json.loads(out.splitlines()[-1]) == [True, True, True, [], 1, 0], (out, err[-2000:])   # one output, both lines
