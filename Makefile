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

# The tray app on a desktop; without a display, the same supervisor headless (confirmations denied).
run: venv
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then exec $(VENV)/bin/deskgate run; else \
	  echo "make run: no display, so starting the headless supervisor (deskgate serve --headless)"; \
	  exec $(VENV)/bin/deskgate serve --headless; fi

# ruff, then the layering contracts in pyproject.toml [tool.importlinter] (which room may import what)
lint: venv
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports

test: sysdeps venv lint
	$(PY) -m pytest

bench: venv
	$(PY) bench/gate_latency.py
	@if [ -f ../shared/eval/dev.jsonl ]; then $(PY) bench/gate_eval.py ../shared/eval/dev.jsonl; fi
	$(PY) bench/audit_throughput.py
	$(PY) bench/socket_roundtrip.py
	$(PY) bench/supervisor_throughput.py
	$(PY) -m bench.dialog_latency

clean:
	rm -rf $(VENV) build *.egg-info tests/artifacts
