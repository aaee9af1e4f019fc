# dpsym: every target works as the first command on a fresh clone (it creates .venv).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with notebooks/nbval_sanitize.cfg

export MPLBACKEND := Agg
export PYTHONHASHSEED := 0

.PHONY: install reproduce test lint pytest nbval verify figures notebooks lab clean

$(STAMP): pyproject.toml requirements/constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check \
		-c requirements/constraints.txt -e ".[test]"
	@touch $(STAMP)

install: $(STAMP)

## The main job: verify every claim and regenerate every figure into figures/.
reproduce: $(STAMP)
	$(BIN)/dpsym reproduce

## Everything CI runs: ruff, pytest (unit, properties, ledger, references), nbval.
test: lint pytest nbval

lint: $(STAMP)
	$(BIN)/ruff check dpsym tests scripts

pytest: $(STAMP)
	$(BIN)/python -m pytest -n 2 tests

nbval: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadfile $(NBVAL) notebooks

verify: $(STAMP)
	$(BIN)/dpsym verify

figures: $(STAMP)
	$(BIN)/dpsym figures

## Re-execute every notebook top to bottom and store its outputs (review the diff!).
notebooks: $(STAMP)
	$(BIN)/python scripts/run_notebooks.py notebooks

## For readers: JupyterLab in the same environment.
lab: $(STAMP)
	$(BIN)/python -m pip install --quiet -c requirements/constraints.txt -e ".[notebook]"
	$(BIN)/jupyter lab notebooks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
