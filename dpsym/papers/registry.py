"""The one list of covered papers.

Everything that iterates over papers derives from :data:`PAPERS`: the ledger
(:func:`dpsym.claims.all_claims` imports ``<package>.claims``), the figures
(:func:`dpsym.figures.all_figures` imports ``<package>.figures``), the command line
(``--paper`` accepts exactly these ids), the README coverage table and the book.
Adding a paper is one :class:`Paper` entry here plus its own folders (see
``CONTRIBUTING.md``, "Adding a paper").

``core`` is not a paper: it holds the foundational results every paper relies on
(GDP, the RDP conversions, the Poisson-subsampled Gaussian), shown in the tour.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PAPERS", "Paper", "cite", "ids", "paper"]


@dataclass(frozen=True)
class Paper:
    """A covered paper.

    ``short`` is the citation used in error messages and docstrings ("Bok et al. 2024");
    ``chapters`` the folder of its notebooks under ``notebooks/``; ``package`` the Python
    package holding its statements, ``printed``, ``claims`` and ``figures`` modules.
    """

    id: str
    authors: str
    short: str
    title: str
    arxiv: str | None
    year: int | None
    chapters: str
    venue: str = ""

    @property
    def package(self) -> str:
        return f"dpsym.papers.{self.id}"

    @property
    def url(self) -> str | None:
        return f"https://arxiv.org/abs/{self.arxiv}" if self.arxiv else None

    def cite(self, where: str = "") -> str:
        """``"Bok et al. 2024, Thm 4.2"``: the reference used in messages and docstrings."""
        return f"{self.short}, {where}" if where else self.short


PAPERS: tuple[Paper, ...] = (
    Paper(
        id="core",
        authors="(foundations)",
        short="dpsym foundations",
        title="Foundational results every paper uses: GDP, RDP conversions, the "
              "Poisson-subsampled Gaussian",
        arxiv=None,
        year=None,
        chapters="core",
    ),
    Paper(
        id="bok2024",
        authors="Jinho Bok, Weijie Su, Jason M. Altschuler",
        short="Bok et al. 2024",
        title="Shifted Interpolation for Differential Privacy",
        arxiv="2403.00278",
        year=2024,
        chapters="bok2024",
        venue="ICML 2024",
    ),
    Paper(
        id="birrell2024",
        authors="Jeremiah Birrell, Reza Ebrahimi, Rouzbeh Behnia, Jason Pacheco",
        short="Birrell et al. 2024",
        title="Differentially Private Stochastic Gradient Descent with Fixed-Size "
              "Minibatches: Tighter RDP Guarantees with or without Replacement",
        arxiv="2408.10456",
        year=2024,
        chapters="birrell2024",
        venue="NeurIPS 2024",
    ),
    Paper(
        id="bravo2025",
        authors="Mario Bravo, Juan Pablo Flores-Mella, Cristóbal Guzmán",
        short="Bravo et al. 2025",
        title="Mixing Times and Privacy Analysis for the Projected Langevin Algorithm "
              "under a Modulus of Continuity",
        arxiv="2501.04134",
        year=2025,
        chapters="bravo2025",
    ),
    Paper(
        id="liang2025",
        authors="Hao Liang, Wanrong Zhang, Xinlei He, Kaishun Wu, Hong Xing",
        short="Liang et al. 2025",
        title="An Improved Privacy and Utility Analysis of Differentially Private SGD with "
              "Bounded Domain and Smooth Losses",
        arxiv="2502.17772",
        year=2025,
        chapters="liang2025",
    ),
    Paper(
        id="tran2022",
        authors="Hoang Tran, Ashok Cutkosky",
        short="Tran & Cutkosky 2022",
        title="Momentum Aggregation for Private Non-convex ERM",
        arxiv="2210.06328",
        year=2022,
        chapters="tran2022",
        venue="NeurIPS 2022",
    ),
)

_BY_ID = {p.id: p for p in PAPERS}


def ids() -> tuple[str, ...]:
    """The ids of the covered papers, in registry order."""
    return tuple(_BY_ID)


def paper(paper_id: str) -> Paper:
    """The registry entry of ``paper_id``; a ``ValueError`` lists the covered papers."""
    try:
        return _BY_ID[paper_id]
    except (KeyError, TypeError):
        raise ValueError(f"paper={paper_id!r} is not covered; covered papers: "
                         f"{', '.join(ids())}") from None


def cite(paper_id: str, where: str = "") -> str:
    """Shorthand for ``paper(paper_id).cite(where)``."""
    return paper(paper_id).cite(where)
