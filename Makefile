# engram developer commands. `make run` serves the suite on the embedded
# PostgreSQL; `make test` runs the checks CI runs first (CI adds `make wheel-check`,
# `make test-slow` and `make test-cluster`). Everything installs from the hashed locks (`make lock`, `make upgrade`).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
NODE_STAMP := node_modules/.installed-stamp

.PHONY: run install test test-slow test-cluster lint typecheck unit node-test node-package protos protos-check schema bench clean \
	stubs stubs-check stub-tools breaking

run: $(STAMP)  ## serve all four services on 127.0.0.1:50051 (embedded PostgreSQL in ./.engram)
	$(BIN)/engram serve

install: $(STAMP) $(NODE_STAMP)

# ---------------------------------------------------------------- Python lock and packaging
# requirements-dev.txt locks (with hashes) everything `make` installs: the runtime, the dev
# tools, the stub generator, pip, setuptools and uv; requirements.txt locks the runtime alone
# (the Dockerfile and wheel-check install from it); requirements-build.txt locks what builds
# the wheel (pyproject.toml's build-system plus `build`, for the Dockerfile). All three come
# from pyproject.toml with uv, the last two constrained to the first.
LOCK := requirements-dev.txt
RUNTIME_LOCK := requirements.txt
BUILD_LOCK := requirements-build.txt
BUILD_REQUIRES = $(BIN)/python -c 'import tomllib; \
	print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], "build", sep="\n")'
DEPS_STAMP := $(VENV)/.deps-stamp
UV_FLAGS := --universal --python-version 3.11 --generate-hashes --custom-compile-command "make lock" --quiet
UV_COMPILE = $(BIN)/uv pip compile pyproject.toml $(UV_FLAGS)

.PHONY: lock upgrade wheel wheel-check

# Exactly the locked packages: pip installs them (hashes required), then uv removes whatever
# the lock no longer lists (engram itself too; the next rule puts it back).
$(DEPS_STAMP): $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(BIN)/uv pip sync --quiet --python $(BIN)/python --require-hashes $(LOCK)
	touch $@

# The project itself, editable, built with the locked setuptools; `pip check` fails when
# pyproject.toml asks for something the lock lacks (then run `make lock`).
$(STAMP): $(DEPS_STAMP) pyproject.toml
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/pip check
	touch $@

lock: $(DEPS_STAMP)  ## re-resolve the locks after editing dependencies in pyproject.toml (other pins kept)
	$(UV_COMPILE) $(LOCK_FLAGS) --extra dev -o $(LOCK)
	$(UV_COMPILE) $(LOCK_FLAGS) --constraint $(LOCK) -o $(RUNTIME_LOCK)
	$(BUILD_REQUIRES) | $(BIN)/uv pip compile - $(UV_FLAGS) $(LOCK_FLAGS) --constraint $(LOCK) -o $(BUILD_LOCK)

# Newest releases of everything, the stub generator included, then stubs from it and the
# runtime floors those stubs need; review the diff, then `make test`.
upgrade: $(DEPS_STAMP)  ## upgrade every locked package and the stub generator, regenerate the stubs
	$(BIN)/python tools/codegen_pins.py bump
	$(MAKE) lock LOCK_FLAGS=--upgrade
	$(MAKE) protos
	$(BIN)/python tools/codegen_pins.py floors
	$(BIN)/python tools/codegen_pins.py check

wheel: $(STAMP)  ## build dist/engram-*.whl (and the sdist) with the locked build tools
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist .

# What a user gets: the wheel in a fresh virtualenv outside the checkout, serving on the
# embedded default, CommitTurn then Recall through the installed package's own stubs.
wheel-check: wheel  ## install the wheel outside the checkout, serve it, commit turns and recall one
	$(BIN)/python tools/wheel_check.py dist/engram-*.whl --lock $(RUNTIME_LOCK)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# pytest-randomly (a dev dependency) runs the tests in a new random order each
# time, so order dependence and races show up; a failing run ends by naming its
# seed: replay that order with `-p randomly --randomly-seed=N`.
test: install protos-check lint breaking typecheck node-test  ## everything CI checks but the slow tests (test-slow)
	OPENBLAS_NUM_THREADS=1 $(BIN)/pytest -m "not slow and not cluster" -q

# Fault tests (tests/faults: SIGKILL of the server, a PostgreSQL restart, both
# under load) and long outages; CI runs them after `make test`.
test-slow: $(STAMP) stubs-check node-package  ## the slow tests
	OPENBLAS_NUM_THREADS=1 $(BIN)/pytest -m slow -q

# `engram cluster up` on a temporary directory with free ports (PostgreSQL primary and
# standby, journal, learning, two retrieval and two gateway replicas, the router), the
# end-to-end tests that take a live target run through its router (ENGRAM_E2E_TARGET), and
# a graceful stop (docs/deploy.md, "One-host cluster").
test-cluster: $(STAMP)  ## the end-to-end suite against a multi-process cluster on this host
	OPENBLAS_NUM_THREADS=1 $(BIN)/python tools/cluster_e2e.py

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
	$(BIN)/python tools/codegen_pins.py check

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

clean:  ## remove the virtualenvs, caches and build outputs
	rm -rf $(VENV) node_modules clients/node/node_modules gen .mypy_cache .ruff_cache .pytest_cache .hypothesis build dist
