.PHONY: run check test lint bench build load

run:    ## set up and start the site (web server + Celery worker)
	scripts/run

check:  ## set up, start, check the home page, /healthz and /healthz/full, stop
	scripts/run --check

test:   ## the whole test suite (engine, apps, Celery worker, browser)
	scripts/test

lint:   ## ruff check, ruff format --check, mypy
	scripts/lint

build:  ## rebuild the board (frontend/ -> static/build/)
	cd frontend && npm run build

bench:  ## benchmarks: each prints figures and ratios against a named peer
	scripts/setup test
	@set -e; found=0; for script in bench/*.py; do \
	  [ -e "$$script" ] || continue; found=1; echo "==> $$script"; .venv/bin/python "$$script"; \
	done; [ $$found = 1 ] || echo "No benchmarks in bench/ yet."

load:   ## load benchmark: gunicorn + worker + PostgreSQL + RabbitMQ under locust for 60 s
	scripts/setup test
	.venv/bin/python bench/load/run.py
