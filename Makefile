# Two commands for a fresh machine with Python 3.10+ and make:
#   make lab    set up, then open the lab in JupyterLab
#   make test   set up, then run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The lab's packages: all that `make lab` needs.
STAMP := $(VENV)/.installed
# ... and the development tools (import-linter, Playwright): for `make test` and CI only.
DEV_STAMP := $(VENV)/.installed-dev
# setuptools reports every editable install in a box that reads like an error; it is only information.
PIP := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install --quiet --disable-pip-version-check
EXTENSION := lab/jupyter/labextension
PYTEST := $(BIN)/python -m pytest $(PYTEST_ARGS)
# make test shares the tests out to one worker more than the machine has cores, in the units tests/parallel.py
# defines: the browser's tests and the graded attackers mostly wait, and a third worker on two cores fills that time.
# `make test CORES=` runs them in one process.
CORES ?= -n $(shell echo $$(( $$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2) + 1 ))) --dist loadgroup

.PHONY: lab test test-fast bench labextension clean

lab: $(STAMP)
	@$(BIN)/spec2code lab

test: $(DEV_STAMP)
	$(PYTEST) $(CORES)

test-fast: $(DEV_STAMP)  # everything but the tests marked slow: the inner loop, under a minute
	$(PYTEST) -m "not slow" --durations=5 --durations-min=0.5  # names any test that has grown too slow for this lane

bench: $(STAMP)
	$(BIN)/python bench/run_speed.py --check
	$(BIN)/python bench/humaneval_speed.py
	$(BIN)/python bench/matrix_and_gap.py
	$(BIN)/python bench/session_memory.py
	$(BIN)/python bench/class_grading.py

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("The lab needs Python 3.10 or newer; $(PYTHON) is " + sys.version.split()[0] + ". Try: make PYTHON=python3.11") if sys.version_info < (3, 10) else None'
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || { echo "$(PYTHON) cannot make virtual environments. On Debian or Ubuntu: sudo apt install python3-venv"; exit 1; }
	@echo "Setting up the lab in $(VENV) (a minute or two the first time)"
	@echo "[1/3] a virtual environment in $(VENV)"
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) --upgrade pip
	@echo "[2/3] JupyterLab and the lab's packages (pip)"
	@$(PIP) -e .
	@echo "[3/3] the lab's kernel, settings, extension and layout in JupyterLab"
	@$(BIN)/spec2code lab --setup-only
	@touch $(STAMP)

$(DEV_STAMP): $(STAMP)
	@echo "Installing the development tools for the tests (import-linter, Playwright)"
	@$(PIP) -e '.[dev]'
	@$(BIN)/python -m tests.schemas
	@touch $(DEV_STAMP)

# Rebuild the reload extension (needs node and npm) and record the sources it was built from; commit the result.
labextension: $(STAMP)
	cd $(EXTENSION) && npm ci --no-audit --no-fund && npx tsc
	rm -rf $(EXTENSION)/built
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/jupyter-builder build \
		--core-package-file="$$($(BIN)/python -c 'import jupyterlab, os; print(os.path.join(os.path.dirname(jupyterlab.__file__), "staging", "package.json"))')" \
		$(EXTENSION)
	$(BIN)/python -m lab.jupyter.install

clean:
	rm -rf $(VENV) .cache
