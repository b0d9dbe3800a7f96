# Two commands for a fresh machine with Python 3.10+ and make:
#   make lab    set up, then open the lab in JupyterLab
#   make test   set up, then run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test test-fast bench clean

lab: $(STAMP)
	$(BIN)/spec2code lab

test: $(STAMP)
	$(BIN)/python -m pytest

test-fast: $(STAMP)  # everything but the tests marked slow: the inner loop, under a minute
	$(BIN)/python -m pytest -m "not slow"

bench: $(STAMP)
	$(BIN)/python bench/run_speed.py --check

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("The lab needs Python 3.10 or newer; $(PYTHON) is " + sys.version.split()[0] + ". Try: make PYTHON=python3.11") if sys.version_info < (3, 10) else None'
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || { echo "$(PYTHON) cannot make virtual environments. On Debian or Ubuntu: sudo apt install python3-venv"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/spec2code lab --setup-only
	@touch $(STAMP)

clean:
	rm -rf $(VENV) .cache
