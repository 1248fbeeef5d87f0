#!/usr/bin/env bash
# Install and start what the test suite needs: PostgreSQL, Redis, a Docker engine and the
# toolchains of the languages bots may be written in.
# Idempotent: services already running are left alone. Prints the environment to use.
set -euo pipefail

log() { printf '[services] %s\n' "$*" >&2; }

need_pkgs=()
command -v redis-server >/dev/null || need_pkgs+=(redis-server)
command -v dockerd >/dev/null || need_pkgs+=(docker.io)
command -v bwrap >/dev/null || need_pkgs+=(bubblewrap)
command -v pg_ctlcluster >/dev/null || need_pkgs+=(postgresql)
# The bot runtime image is made from Debian's python3.11 and numpy (deploy/build-runtime-image.sh).
[ -x /usr/bin/python3.11 ] || need_pkgs+=(python3.11)
/usr/bin/python3.11 -c 'import numpy' 2>/dev/null || need_pkgs+=(python3-numpy)
# Bots in other languages: the process backend builds and runs them with the host's toolchains
# (tests/arena/test_starters.py; sandbox/languages.py names each language's host tools).
command -v node >/dev/null || need_pkgs+=(nodejs)
command -v javac >/dev/null || need_pkgs+=(openjdk-17-jdk-headless)
command -v g++ >/dev/null || need_pkgs+=(g++)
command -v rustc >/dev/null || need_pkgs+=(rustc)
command -v cargo >/dev/null || need_pkgs+=(cargo)
command -v go >/dev/null || need_pkgs+=(golang-go)
# Browser tests drive Debian's chromium through Playwright.
command -v chromium >/dev/null || need_pkgs+=(chromium)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  log "installing ${need_pkgs[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
fi

# PostgreSQL: Debian's cluster, a role and a database for the tests.
pg_ver=$(ls /etc/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | awk '{print $4}' | grep -q online; then
  log "starting PostgreSQL $pg_ver"
  pg_ctlcluster "$pg_ver" main start
fi
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='arena'\"" | grep -q 1 ||
  su postgres -c "psql -qc \"CREATE ROLE arena LOGIN SUPERUSER PASSWORD 'arena'\""
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='arena'\"" | grep -q 1 ||
  su postgres -c "psql -qc 'CREATE DATABASE arena OWNER arena'"

# Redis on loopback.
if ! redis-cli -p 6379 ping >/dev/null 2>&1; then
  log "starting Redis"
  redis-server --daemonize yes --port 6379 --bind 127.0.0.1 --save '' --appendonly no >/dev/null
fi

# Docker engine (no systemd here).
if ! docker info >/dev/null 2>&1; then
  log "starting dockerd"
  nohup dockerd >/tmp/dockerd.log 2>&1 &
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
fi
docker info >/dev/null 2>&1 || { log "dockerd did not answer; see /tmp/dockerd.log"; exit 1; }

for _ in $(seq 1 40); do redis-cli -p 6379 ping >/dev/null 2>&1 && break; sleep 0.25; done
log "PostgreSQL: $(su postgres -c 'psql -qtAc "SHOW server_version"')"
log "Redis: $(redis-cli -p 6379 ping)"
log "Docker: $(docker version --format '{{.Server.Version}}')"
