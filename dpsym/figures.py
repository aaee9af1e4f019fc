"""Shared figure style and the registry of every regenerated figure.

Each paper figure is a function returning a matplotlib ``Figure``; :func:`figure` registers
it under ``"<paper>/<name>"`` and :func:`save_all` writes ``<out>/<paper>_<name>.png`` and
``.pdf``.  Files are written without timestamps so regenerating an unchanged figure gives
identical bytes (the figures are committed).
"""

from __future__ import annotations

import importlib
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
    "PALETTE", "STYLE", "FigureSpec", "all_figures", "epsilon_panel", "figure", "new_figure",
    "save", "save_all", "show", "style", "tradeoff_panel",
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

# The modules whose import registers figures, by paper.
_FIGURE_MODULES = ("dpsym.papers.core", "dpsym.papers.bok2024", "dpsym.papers.bravo2025",
                   "dpsym.papers.birrell2024")


@contextmanager
def style() -> Iterator[None]:
    """Apply the dpsym style for the body."""
    with plt.rc_context(STYLE):
        yield


def show(fig: Figure) -> None:
    """Display ``fig`` once in a notebook and close it (no double display by inline hooks)."""
    from IPython.display import display

    display(fig)
    plt.close(fig)


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
    ax.legend(fontsize=7)


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
    ax.legend(fontsize=7)


def new_figure(ncols: int = 1, nrows: int = 1, width: float = 4.2, height: float = 3.4,
               **kwargs: object) -> tuple[Figure, object]:
    """A styled figure with a grid of axes (``width`` x ``height`` inches per panel)."""
    with style():
        fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                                 layout="constrained", **kwargs)
    return fig, axes


@dataclass(frozen=True)
class FigureSpec:
    paper: str
    name: str
    title: str
    make: Callable[[], Figure]

    @property
    def key(self) -> str:
        return f"{self.paper}/{self.name}"


_FIGURES: dict[str, FigureSpec] = {}


FigureFn = Callable[[], Figure]


def figure(paper: str, name: str, title: str) -> Callable[[FigureFn], FigureFn]:
    """Decorator registering a figure function (no arguments, returns a Figure)."""

    def deco(fn: Callable[[], Figure]) -> Callable[[], Figure]:
        spec = FigureSpec(paper, name, title, fn)
        _FIGURES[spec.key] = spec
        return fn

    return deco


def all_figures(paper: str | None = None) -> list[FigureSpec]:
    for mod in _FIGURE_MODULES:
        importlib.import_module(mod)
    return [f for f in _FIGURES.values() if paper is None or f.paper == paper]


def save(fig: Figure, out: Path, stem: str) -> list[Path]:
    """Write ``stem``.png and ``stem``.pdf into ``out`` without timestamps."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{stem}.png", out / f"{stem}.pdf"]
    with style():
        fig.savefig(paths[0], metadata={"Software": None})
        fig.savefig(paths[1], metadata={"CreationDate": None, "ModDate": None, "Producer": None,
                                        "Creator": None})
    return paths


def save_all(out: Path, paper: str | None = None, progress: bool = False) -> list[Path]:
    """Regenerate every registered figure (of ``paper``) into ``out``."""
    specs = all_figures(paper)
    written: list[Path] = []
    it = specs
    if progress:
        from tqdm import tqdm

        it = tqdm(specs, desc="figures", unit="fig")
    for spec in it:
        fig = spec.make()
        written += save(fig, out, f"{spec.paper}_{spec.name}")
        plt.close(fig)
    return written
