# dpsym: every target works as the first command on a fresh clone (it creates .venv).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with notebooks/nbval_sanitize.cfg

export MPLBACKEND := Agg
export PYTHONHASHSEED := 0
# A figure a reader would object to (legend over data, tiny legend, sparse curve, one colour
# meaning two things) fails the tests and the notebooks (dpsym.figures.lint).
export DPSYM_FIGURE_LINT ?= strict

.PHONY: install reproduce test lint pytest nbval verify figures notebooks book summaries lab clean

$(STAMP): pyproject.toml requirements/constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check \
		-c requirements/constraints.txt -e ".[test]"
	@touch $(STAMP)

install: $(STAMP)

## The main job: verify every claim and regenerate every figure into figures/.
reproduce: $(STAMP)
	$(BIN)/dpsym reproduce

## Everything CI runs: ruff, pytest (unit, properties, ledger, references, doctests, the
## book), nbval.
test: lint pytest nbval

lint: $(STAMP)
	$(BIN)/ruff check dpsym tests scripts

pytest: $(STAMP)
	$(BIN)/python -m pytest -n 2 --doctest-modules tests dpsym

nbval: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadfile $(NBVAL) notebooks

verify: $(STAMP)
	$(BIN)/dpsym verify

figures: $(STAMP)
	$(BIN)/dpsym figures

## Re-execute every notebook top to bottom and store its outputs (review the diff!).
notebooks: $(STAMP)
	$(BIN)/python scripts/run_notebooks.py notebooks

## The chapters as an offline HTML site in build/book (open build/book/index.html).
book: $(STAMP)
	$(BIN)/python scripts/build_book.py --out build/book

## Regenerate each paper's errata-and-summary chapter from the ledger (and execute it).
summaries: $(STAMP)
	$(BIN)/python scripts/make_summary_chapters.py --readme

## For readers: JupyterLab in the same environment.
lab: $(STAMP)
	$(BIN)/python -m pip install --quiet -c requirements/constraints.txt -e ".[notebook]"
	$(BIN)/jupyter lab notebooks

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache .hypothesis
