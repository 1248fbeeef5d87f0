#!/usr/bin/env bash
# Build the runtime images of the languages other than Python from Debian 12's packages: no
# image registry needed, only a Debian mirror (the one this machine's apt uses).
#
#   deploy/build-language-images.sh           # builds what is missing or out of date
#   deploy/build-language-images.sh --force   # rebuilds them all
#
# One base image (debootstrap --variant=minbase bookworm, trimmed, `docker import`ed), then one
# image per toolchain made from it by `apt-get install --no-install-recommends` in a container
# (layers on the shared base; the apt cache is a volume kept between runs). The tags are those
# sandbox/languages.py names (image, build_image); tests/sandbox/test_language_images.py checks
# that this table covers them all. The "native" image runs compiled binaries (C++, Rust, Go):
# the base holds libc, libstdc++ and libgcc.
# Idempotent: each image carries a fingerprint label of its inputs (RECIPE below, the mirror,
# its packages); an up-to-date image is left alone (a second run takes about a second). deploy/build-runtime-image.sh runs this script.
# For deployments with registry access, deploy/runtime/languages.Dockerfile builds the same tags.
set -euo pipefail

FORCE="${1:-}"
TAG="deb12-1"
BASE="meeple-arena/bot-base:$TAG"
CACHE="${ARENA_IMAGE_CACHE:-/var/cache/meeple-arena}"
MIRROR="${ARENA_DEBIAN_MIRROR:-$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"

# key -> Debian packages (the image is meeple-arena/bot-<key>:$TAG).
declare -A PKGS=(
  [native]=""
  [javascript]="nodejs"
  [java]="openjdk-17-jdk-headless"
  [cpp]="g++"
  [rust]="rustc cargo"
  [go]="golang-go"
)
# A command each image must run, as nobody, with no network, read-only (the smoke test).
declare -A SMOKE=(
  [native]="sh -c 'echo ok'"
  [javascript]="node --version"
  [java]="sh -c 'javac -version && java -Xshare:auto -version'"
  [cpp]="g++ --version"
  [rust]="sh -c 'rustc --version && cargo --version'"
  [go]="env GOCACHE=/tmp/gocache go version"
)
ORDER=(native javascript cpp go java rust)

die() { echo "build-language-images: $*" >&2; exit 1; }
command -v docker >/dev/null || die "the docker CLI is not installed (apt-get install docker.io)"
docker info >/dev/null 2>&1 || die "no Docker engine answers: start one (e.g. 'dockerd > /tmp/dockerd.log 2>&1 &')"

# Bump when the way an image is made changes (fingerprints: this, the mirror, the packages).
RECIPE=1
fingerprint_of() { docker image inspect "$1" --format '{{ index .Config.Labels "meeple.fingerprint" }}' 2>/dev/null || true; }
up_to_date() { [ "$FORCE" != "--force" ] && [ "$(fingerprint_of "$1")" = "$2" ]; }
size_of() { docker image inspect "$1" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}'; }

ENVS=(--change 'ENV PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 HOME=/tmp'
      --change 'USER 65534:65534' --change 'WORKDIR /bot' --change 'CMD ["sh"]')

build_base() {
  local fp=$1
  command -v debootstrap >/dev/null || {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || die "debootstrap is not installed"
    echo "build-language-images: installing debootstrap" >&2
    apt-get install -y --no-install-recommends debootstrap >/dev/null
  }
  local root
  root=$(mktemp -d /tmp/meeple-base-rootfs.XXXXXX)
  trap 'rm -rf "$root"' RETURN
  mkdir -p "$CACHE/apt"
  echo "build-language-images: debootstrap bookworm from $MIRROR" >&2
  debootstrap --variant=minbase --cache-dir="$CACHE/apt" bookworm "$root" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
    || die "debootstrap failed: see $CACHE/debootstrap.log"
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* \
         "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/*
  mkdir -p "$root/bot"
  # No documentation in the images built on it either.
  printf 'path-exclude=/usr/share/doc/*\npath-exclude=/usr/share/man/*\npath-exclude=/usr/share/info/*\npath-exclude=/usr/share/locale/*\n' \
    > "$root/etc/dpkg/dpkg.cfg.d/01-meeple-nodoc"
  tar -C "$root" --numeric-owner -c . | docker import "${ENVS[@]}" \
    --change "LABEL meeple.fingerprint=$fp" - "$BASE" >/dev/null
}

build_one() {
  local key=$1 fp=$2 image="meeple-arena/bot-$1:$TAG" name="meeple-image-build-$1"
  local old
  old=$(docker image inspect "$image" --format '{{.Id}}' 2>/dev/null || true)
  docker rm -f "$name" >/dev/null 2>&1 || true
  mkdir -p "$CACHE/apt/partial"
  local script="true"
  if [ -n "${PKGS[$key]}" ]; then
    # man1 must exist: the JDK's postinst links its manual pages there (even when excluded).
    script="mkdir -p /usr/share/man/man1 && apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends ${PKGS[$key]} && rm -rf /var/lib/apt/lists/*"
  fi
  docker run --name "$name" --user 0:0 -v "$CACHE/apt:/var/cache/apt/archives" "$BASE" \
    sh -c "$script" >"$CACHE/build-$key.log" 2>&1 || { docker rm -f "$name" >/dev/null; die "installing ${PKGS[$key]} failed: see $CACHE/build-$key.log"; }
  docker commit --change 'USER 65534:65534' --change "LABEL meeple.fingerprint=$fp meeple.packages=${PKGS[$key]// /,}" \
    "$name" "$image" >/dev/null
  docker rm "$name" >/dev/null
  # Smoke test: the toolchain runs as nobody with no network and a read-only root.
  eval "docker run --rm --network none --read-only --tmpfs /tmp $image ${SMOKE[$key]}" >/dev/null 2>&1 \
    || die "$image does not run: ${SMOKE[$key]}"
  if [ -n "$old" ] && [ "$old" != "$(docker image inspect "$image" --format '{{.Id}}')" ]; then
    docker image rm "$old" >/dev/null 2>&1 || true
  fi
  echo "built $image (${PKGS[$key]:-base only}, $(size_of "$image"))"
}

BASE_FP=$(echo "$RECIPE $MIRROR base" | sha256sum | cut -c1-16)
if up_to_date "$BASE" "$BASE_FP"; then
  echo "$BASE is up to date"
else
  t0=$(date +%s); build_base "$BASE_FP"; echo "built $BASE ($(size_of "$BASE"), $(( $(date +%s) - t0 )) s)"
fi
for key in "${ORDER[@]}"; do
  fp=$(echo "$RECIPE $BASE_FP $key ${PKGS[$key]}" | sha256sum | cut -c1-16)
  if up_to_date "meeple-arena/bot-$key:$TAG" "$fp"; then
    echo "meeple-arena/bot-$key:$TAG is up to date"
  else
    t0=$(date +%s); build_one "$key" "$fp"; echo "  ($(( $(date +%s) - t0 )) s)"
  fi
done
