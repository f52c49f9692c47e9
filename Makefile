# deskgate: `make run` starts it with the shipped policy; `make test` runs the whole suite.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PYTHON ?= python3

.PHONY: run test lint sysdeps venv bench clean

$(STAMP): pyproject.toml
	@bash .ci/sysdeps.sh
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -U pip
	$(PY) -m pip install -q -e '.[test]'
	@touch $@

venv: $(STAMP)

sysdeps:
	@bash .ci/sysdeps.sh

run: venv
	$(VENV)/bin/deskgate run

lint: venv
	$(PY) -m ruff check .

test: sysdeps venv lint
	$(PY) -m pytest

bench: venv
	$(PY) bench/gate_latency.py
	@if [ -f ../shared/eval/dev.jsonl ]; then $(PY) bench/gate_eval.py ../shared/eval/dev.jsonl; fi

clean:
	rm -rf $(VENV) build *.egg-info tests/artifacts
