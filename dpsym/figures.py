"""Shared figure style, the registry of every figure, display in chapters, and a linter.

Each figure is a function in a paper's ``figures`` module returning a matplotlib
``Figure``; :func:`figure` registers it under ``"<paper>/<name>"`` with a caption, and
:func:`save_all` writes ``<out>/<paper>_<name>.png`` and ``.pdf`` plus ``INDEX.md``.
Files are written without timestamps, so regenerating an unchanged figure gives identical
bytes (the figures are committed). Only a paper's own figures are named ``figure_N``.

Chapters display figures with :func:`show`, which stores a PNG whatever the matplotlib
backend (nbval compares only the text line beside it). :func:`lint` checks what a reader
would notice: a legend over data, legends under 8 pt, a colour that means two things
across panels, log axes with fewer than two labelled ticks, and sparse curves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

__all__ = [
    "PALETTE",
    "STYLE",
    "FigureSpec",
    "Written",
    "all_figures",
    "check_out_dir",
    "epsilon_panel",
    "figure",
    "get",
    "index_markdown",
    "lint",
    "new_figure",
    "render",
    "save",
    "save_all",
    "show",
    "style",
    "tradeoff_panel",
]

STYLE = {
    "figure.dpi": 110,
    "savefig.dpi": 200,
    "savefig.bbox": "tight",
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "lines.linewidth": 1.8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(
        color=["#1b6ca8", "#d1495b", "#2e8b57", "#edae49", "#6c4f9c", "#00798c", "#444444"]
    ),
    "svg.hashsalt": "dpsym",
}

#: Smallest legend font a reader can read at the saved size (points).
MIN_LEGEND_PT = 8.0
#: Fewest points of a drawn curve (a line with more than two vertices); sparser data is
#: drawn as markers only, or tagged ``line.set_gid("discrete")`` when the segments only
#: guide the eye between exact values at integer arguments.
MIN_CURVE_POINTS = 15


@contextmanager
def style() -> Iterator[None]:
    """Apply the dpsym style for the body."""
    with plt.rc_context(STYLE):
        yield


def _png(fig: Figure) -> bytes:
    import io

    buf = io.BytesIO()
    with style():
        fig.savefig(buf, format="png", dpi=STYLE["figure.dpi"], metadata={"Software": None})
    return buf.getvalue()


def show(fig: Figure) -> None:
    """Display ``fig`` in a notebook as a PNG, whatever the backend, and close it.

    The text beside the image (what nbval compares) names the registered figure and its
    caption, never the figure's size or address. The figure is linted first
    (:func:`lint`); with ``DPSYM_FIGURE_LINT=strict`` (set by ``make test``) a problem
    raises ``ValueError``.
    """
    from IPython.display import display

    _enforce_lint(fig)
    label = fig.get_label()
    spec = _FIGURES.get(label)
    text = f"[figure {label}: {spec.caption}]" if spec else f"[figure {label or 'unregistered'}]"
    display({"image/png": _png(fig), "text/plain": text}, raw=True)
    plt.close(fig)


def _enforce_lint(fig: Figure) -> None:
    import os
    import warnings

    problems = lint(fig)
    if not problems:
        return
    msg = f"figure {fig.get_label() or '(unregistered)'}: " + "; ".join(problems)
    if os.environ.get("DPSYM_FIGURE_LINT", "warn") == "strict":
        raise ValueError(msg)
    warnings.warn(msg, stacklevel=3)


def _line_points(line: object) -> np.ndarray:
    """Display coordinates of a line's vertices, densified along each segment."""
    xy = np.column_stack([np.asarray(line.get_xdata(), dtype=float),
                          np.asarray(line.get_ydata(), dtype=float)])
    xy = xy[np.all(np.isfinite(xy), axis=1)]
    if len(xy) == 0:
        return xy
    pts = line.get_transform().transform(xy)
    if line.get_linestyle() in ("None", "", " ") or len(pts) < 2:
        return pts
    t = np.linspace(0, 1, 8)[:, None, None]
    seg = pts[:-1][None] * (1 - t) + pts[1:][None] * t
    return seg.reshape(-1, 2)


def _label_tokens(label: str) -> set[str]:
    import re

    return {t.strip() for t in re.split(r"[,:;()]", label) if t.strip()}


def lint(fig: Figure) -> list[str]:
    """What a careful reader would object to in ``fig``, as a list of sentences.

    Checks, on the drawn figure: no legend covers a plotted point or line; legend text is
    at least :data:`MIN_LEGEND_PT`; across the panels one colour carries one label and one
    label one colour; every log axis shows at least two labelled ticks; a drawn curve has
    at least :data:`MIN_CURVE_POINTS` vertices (straight two-point lines and lines tagged
    ``gid="discrete"`` excepted).
    """
    from matplotlib.legend import Legend

    fig.canvas.draw()
    problems: list[str] = []
    # colour -> panel -> labels drawn in it; label -> colours
    colour_use: dict[str, dict[int, list[str]]] = {}
    label_to_colour: dict[str, set[str]] = {}
    legends = [lg for ax in fig.axes for lg in [ax.get_legend()] if lg is not None]
    legends += [lg for lg in fig.legends if isinstance(lg, Legend)]
    for lg in legends:
        for t in lg.get_texts():
            if t.get_fontsize() < MIN_LEGEND_PT:
                problems.append(f"legend text '{t.get_text()}' is {t.get_fontsize():g} pt "
                                f"(< {MIN_LEGEND_PT:g})")
                break
    for i, ax in enumerate(fig.axes):
        name = ax.get_title() or f"panel {i + 1}"
        lg = ax.get_legend()
        box = lg.get_window_extent().shrunk(0.96, 0.9) if lg is not None else None
        ax_box = ax.get_window_extent()
        for line in ax.get_lines():
            if not line.get_visible():
                continue
            label = line.get_label()
            if label and not label.startswith("_"):
                colour = matplotlib.colors.to_hex(line.get_color())
                colour_use.setdefault(colour, {}).setdefault(i, []).append(label)
                label_to_colour.setdefault(label, set()).add(colour)
            n = len(line.get_xdata())
            drawn = line.get_linestyle() not in ("None", "", " ")
            if drawn and 2 < n < MIN_CURVE_POINTS and line.get_gid() != "discrete":
                problems.append(f"{name}: curve '{label}' has only {n} points")
            if box is not None:
                pts = _line_points(line)
                inside_axes = ((pts[:, 0] >= ax_box.x0) & (pts[:, 0] <= ax_box.x1)
                               & (pts[:, 1] >= ax_box.y0) & (pts[:, 1] <= ax_box.y1))
                pts = pts[inside_axes]
                hit = ((pts[:, 0] > box.x0) & (pts[:, 0] < box.x1)
                       & (pts[:, 1] > box.y0) & (pts[:, 1] < box.y1))
                if hit.any():
                    what = f"'{label}'" if label and not label.startswith("_") else "a line"
                    problems.append(f"{name}: the legend covers {what}")
        if box is not None:
            for coll in ax.collections:
                offs = coll.get_offsets()
                if len(offs) == 0 or not coll.get_visible():
                    continue
                pts = coll.get_offset_transform().transform(np.asarray(offs, dtype=float))
                hit = ((pts[:, 0] > box.x0) & (pts[:, 0] < box.x1)
                       & (pts[:, 1] > box.y0) & (pts[:, 1] < box.y1))
                if hit.any() and type(coll).__name__ == "PathCollection":
                    problems.append(f"{name}: the legend covers markers of "
                                    f"'{coll.get_label()}'")
        for axis, scale in (("x", ax.get_xscale()), ("y", ax.get_yscale())):
            if scale != "log":
                continue
            ticks = ax.xaxis if axis == "x" else ax.yaxis
            lo, hi = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
            shown = [t for t in ticks.get_majorticklabels() + ticks.get_minorticklabels()
                     if t.get_text() and t.get_visible()
                     and lo * (1 - 1e-9) <= (t.get_position()[0 if axis == "x" else 1])
                     <= hi * (1 + 1e-9)]
            if len(shown) < 2:
                problems.append(f"{name}: log {axis} axis shows {len(shown)} labelled tick(s)")
    for colour, panels in colour_use.items():
        # A colour may carry one attribute shared by all its labels ("t=10" in "ours, t=10"
        # and "composition, t=10", told apart by line style); it must be the same one in
        # every panel.
        common = set.intersection(*(set.intersection(*map(_label_tokens, labels))
                                    for labels in panels.values()))
        if not common:
            labels = sorted({lab for labels in panels.values() for lab in labels})
            problems.append(f"colour {colour} means {labels}")
    for label, colours in label_to_colour.items():
        if len(colours) > 1:
            problems.append(f"label '{label}' drawn in {len(colours)} colours")
    return problems


#: Colours for curves that come in matched groups (e.g. ours vs composition at a given t).
PALETTE = ("#1b6ca8", "#d1495b", "#2e8b57")


def tradeoff_panel(ax: Axes, curves: list[tuple[object, str, str, str]], title: str) -> None:
    """Draw G(mu) for each (mu, label, colour, linestyle) on [0, 1]^2 with the papers' axes."""
    from dpsym.fdp import Gaussian

    xs = np.linspace(0, 1, 301)
    for mu, label, color, linestyle in curves:
        ax.plot(xs, Gaussian(mu).vectorized(xs), color=color, linestyle=linestyle, label=label)
    ax.set_xlabel("Type I error")
    ax.set_ylabel("Type II error")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_title(title)
    ax.legend()


def epsilon_panel(ax: Axes, x: object, series: list[tuple[list, str, str, str]], xlabel: str,
                  title: str) -> None:
    """Draw eps against steps or epochs (log x) for each (values, label, colour, linestyle)."""
    for values, label, color, linestyle in series:
        ax.plot(x, [float(v) for v in values], color=color, linestyle=linestyle, marker="o",
                markersize=3, label=label)
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(r"$\varepsilon$")
    ax.set_title(title)
    ax.legend()


def new_figure(ncols: int = 1, nrows: int = 1, width: float = 4.2, height: float = 3.4,
               **kwargs: object) -> tuple[Figure, object]:
    """A styled figure with a grid of axes (``width`` x ``height`` inches per panel)."""
    with style():
        fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                                 layout="constrained", **kwargs)
    return fig, axes


@dataclass(frozen=True)
class FigureSpec:
    """A registered figure: ``make()`` builds it; ``caption`` says what it shows."""

    paper: str
    name: str
    caption: str
    make: Callable[[], Figure]

    @property
    def key(self) -> str:
        return f"{self.paper}/{self.name}"

    @property
    def stem(self) -> str:
        return f"{self.paper}_{self.name}"

    @property
    def title(self) -> str:  # the former name of ``caption``
        return self.caption


_FIGURES: dict[str, FigureSpec] = {}


FigureFn = Callable[..., Figure]


def figure(paper: str, name: str, caption: str) -> Callable[[FigureFn], FigureFn]:
    """Decorator registering a figure function (no required arguments, returns a Figure).

    The figure it returns is labelled with its key, so :func:`show` can name it.
    """
    import functools

    def deco(fn: FigureFn) -> FigureFn:
        @functools.wraps(fn)
        def make(*args: object, **kwargs: object) -> Figure:
            fig = fn(*args, **kwargs)
            fig.set_label(f"{paper}/{name}")
            return fig

        spec = FigureSpec(paper, name, caption, make)
        if spec.key in _FIGURES and _FIGURES[spec.key].make.__wrapped__ is not fn:
            raise ValueError(f"figure {spec.key!r} registered twice")
        _FIGURES[spec.key] = spec
        return make

    return deco


def _load(paper: str | None) -> None:
    import importlib.util

    from dpsym.papers import registry

    for p in registry.ids() if paper is None else (registry.paper(paper).id,):
        pkg = registry.paper(p).package
        importlib.import_module(pkg)
        if importlib.util.find_spec(f"{pkg}.figures") is not None:
            importlib.import_module(f"{pkg}.figures")


def all_figures(paper: str | None = None) -> list[FigureSpec]:
    """Every registered figure (of ``paper``), in registry then registration order."""
    from dpsym.papers import registry

    _load(paper)
    order = {p: i for i, p in enumerate(registry.ids())}
    specs = [f for f in _FIGURES.values() if paper is None or f.paper == paper]
    return sorted(specs, key=lambda f: order[f.paper])


def get(key: str) -> FigureSpec:
    """The registered figure ``"<paper>/<name>"``."""
    paper = key.split("/", 1)[0]
    _load(paper)
    try:
        return _FIGURES[key]
    except KeyError:
        raise ValueError(f"figure={key!r} is not registered") from None


_METADATA = {"png": {"Software": None},
             "pdf": {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}}


def render(fig: Figure, fmt: str) -> bytes:
    """The bytes ``save`` would write for ``fig`` as ``fmt`` (png or pdf), without timestamps."""
    import io

    buf = io.BytesIO()
    with style():
        fig.savefig(buf, format=fmt, metadata=_METADATA[fmt])
    return buf.getvalue()


def save(fig: Figure, out: Path, stem: str) -> list[Path]:
    """Write ``stem``.png and ``stem``.pdf into ``out`` without timestamps."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{stem}.png", out / f"{stem}.pdf"]
    for path, fmt in zip(paths, ("png", "pdf"), strict=True):
        path.write_bytes(render(fig, fmt))
    return paths


@dataclass(frozen=True)
class Written:
    """What :func:`save_all` did with one file: ``wrote``, ``unchanged`` (identical bytes
    already there), ``refused`` (a different file is there and ``force`` was not given) or
    ``read-only`` (never touched, even with ``force``)."""

    path: Path
    status: str


def check_out_dir(out: Path) -> None:
    """``out`` must be a directory, or a new one whose parent exists (no path is created
    beyond the last component: a typo must not grow a tree)."""
    from dpsym.errors import HypothesisError

    if out.exists():
        if not out.is_dir():
            raise HypothesisError("--out", str(out), "a directory (it is a file)", "dpsym figures")
        return
    if not out.parent.is_dir():
        raise HypothesisError("--out", str(out), f"a directory whose parent exists "
                              f"({out.parent} does not; create it first)", "dpsym figures")


def _put(path: Path, data: bytes, force: bool) -> Written:
    import os

    if path.exists():
        # the mode bits, not os.access: as root every file is "writable"
        if not os.access(path, os.W_OK) or not path.stat().st_mode & 0o222:
            return Written(path, "read-only")
        if path.read_bytes() == data:
            return Written(path, "unchanged")
        if not force:
            return Written(path, "refused")
    path.write_bytes(data)
    return Written(path, "wrote")


def save_all(out: Path, paper: str | None = None, progress: bool = False,
             force: bool = False) -> list[Written]:
    """Regenerate every registered figure (of ``paper``) into ``out``, and ``INDEX.md``.

    Files are compared before writing: identical bytes are left alone, a differing file is
    replaced only with ``force``, a read-only file never (see :class:`Written`).  ``out``
    itself is created when its parent exists (:func:`check_out_dir`).
    """
    check_out_dir(out)
    out.mkdir(exist_ok=True)
    specs = all_figures(paper)
    done: list[Written] = []
    it = specs
    if progress:
        from tqdm import tqdm

        it = tqdm(specs, desc="figures", unit="fig")
    for spec in it:
        fig = spec.make()
        _enforce_lint(fig)
        for fmt in ("png", "pdf"):
            done.append(_put(out / f"{spec.stem}.{fmt}", render(fig, fmt), force))
        plt.close(fig)
    done.append(_put(out / "INDEX.md", (index_markdown() + "\n").encode(), force))
    return done


def index_markdown() -> str:
    """``figures/INDEX.md``: every registered figure with its caption, by paper."""
    from dpsym.papers import registry

    lines = ["# Figures", "",
             "Regenerated by `dpsym figures` from the functions the chapters call. "
             "Generated from the figure registry; do not edit by hand.", ""]
    for p in registry.PAPERS:
        specs = all_figures(p.id)
        if not specs:
            continue
        lines += [f"## {p.short}: {p.title}" if p.id != "core" else "## Foundations", ""]
        lines += ["| file | shows | function |", "|---|---|---|"]
        for s in specs:
            fn = s.make.__wrapped__
            lines.append(f"| [{s.stem}.png]({s.stem}.png) | {s.caption} | "
                         f"`{fn.__module__}.{fn.__name__}` |")
        lines.append("")
    return "\n".join(lines)

