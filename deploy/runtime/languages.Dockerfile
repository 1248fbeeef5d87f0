# The runtime images of the languages other than Python, for real deployments (with registry
# access). One file, one target per image; the tags must equal sandbox/languages.py's:
#   for t in native javascript java cpp rust go; do
#     docker build -f deploy/runtime/languages.Dockerfile --target "$t" \
#       -t "meeple-arena/bot-$t:deb12-1" deploy/runtime
#   done
# Without registry access, deploy/build-language-images.sh builds the same tags from a Debian
# mirror (debootstrap, then apt-get in a container): what CI and the demo do.
#
# Contents, documented for bot authors (docs/sandbox.md): Debian 12's toolchains, nothing else.
# No network at build or run time, so nothing can be installed later (Cargo without crates,
# Go without module downloads, a package.json without an install step).
FROM debian:bookworm-slim AS base
RUN mkdir -p /bot /usr/share/man/man1
ENV LANG=C.UTF-8 HOME=/tmp
WORKDIR /bot

# Runs compiled bots (C++, Rust, Go): libc, libstdc++ and libgcc are in the base.
FROM base AS native
USER 65534:65534

FROM base AS javascript
RUN apt-get update && apt-get install -y --no-install-recommends nodejs \
 && rm -rf /var/lib/apt/lists/*
USER 65534:65534

FROM base AS java
RUN apt-get update && apt-get install -y --no-install-recommends openjdk-17-jdk-headless \
 && rm -rf /var/lib/apt/lists/*
USER 65534:65534

FROM base AS cpp
RUN apt-get update && apt-get install -y --no-install-recommends g++ \
 && rm -rf /var/lib/apt/lists/*
USER 65534:65534

FROM base AS rust
RUN apt-get update && apt-get install -y --no-install-recommends rustc cargo \
 && rm -rf /var/lib/apt/lists/*
USER 65534:65534

FROM base AS go
RUN apt-get update && apt-get install -y --no-install-recommends golang-go \
 && rm -rf /var/lib/apt/lists/*
USER 65534:65534
