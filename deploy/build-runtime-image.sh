#!/usr/bin/env bash
# Build the bot runtime images from this machine's files: no registry needed.
#
#   deploy/build-runtime-image.sh          # builds meeple-arena/bot-runtime:py3.11-1 if out of date
#   deploy/build-runtime-image.sh --force  # rebuilds anyway
#
# First the other languages' images (deploy/build-language-images.sh: Debian 12's toolchains,
# from the Debian mirror), then Python's:
#
# The image holds Debian's python3.11 (/usr/bin/python3.11), its standard library (without test,
# idlelib, tkinter, turtledemo, ensurepip) and numpy, plus the shared libraries ldd says they
# need, and a nobody user. It is a root filesystem made into an image with `docker import`.
# Idempotent: a fingerprint label records the inputs; an up-to-date image is left alone (~1 s).
# For real deployments with registry access, deploy/runtime/Dockerfile builds the same tag from
# python:3.11-slim.
set -euo pipefail

IMAGE="meeple-arena/bot-runtime:py3.11-1"   # == sandbox.docker.RUNTIME_IMAGE
PY="${ARENA_RUNTIME_PYTHON:-/usr/bin/python3.11}"
FORCE="${1:-}"

die() { echo "build-runtime-image: $*" >&2; exit 1; }

command -v docker >/dev/null || die "the docker CLI is not installed (apt-get install docker.io)"
docker info >/dev/null 2>&1 || die "no Docker engine answers: start one (e.g. 'dockerd > /tmp/dockerd.log 2>&1 &')"

# The other languages' images (sandbox/languages.py), from Debian 12's packages; skipped with
# ARENA_LANGUAGE_IMAGES=0 (a Python-only machine).
if [ "${ARENA_LANGUAGE_IMAGES:-1}" != 0 ]; then
  bash "$(dirname "$0")/build-language-images.sh" "$FORCE"
fi
[ -x "$PY" ] || die "$PY not found: apt-get install python3.11 (Debian 12) or set ARENA_RUNTIME_PYTHON"
"$PY" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || die "$PY is not Python 3.11"

# numpy is part of the documented runtime; install Debian's build of it when missing.
if ! "$PY" -c 'import numpy' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "build-runtime-image: installing python3-numpy" >&2
    apt-get install -y --no-install-recommends python3-numpy >/dev/null || true
  fi
fi
WITH_NUMPY=0
"$PY" -c 'import numpy' 2>/dev/null && WITH_NUMPY=1
[ "$WITH_NUMPY" = 1 ] || echo "build-runtime-image: WARNING: numpy not available, image has the standard library only" >&2

PYVER=$("$PY" -c 'import sys; print(sys.version.split()[0])')
NPVER=$([ "$WITH_NUMPY" = 1 ] && "$PY" -c 'import numpy; print(numpy.__version__)' || echo none)
FINGERPRINT=$( (cat "$0"; echo "$PYVER $NPVER"; sha256sum "$PY") | sha256sum | cut -c1-16)

if [ "$FORCE" != "--force" ]; then
  HAVE=$(docker image inspect "$IMAGE" --format '{{ index .Config.Labels "meeple.fingerprint" }}' 2>/dev/null || true)
  if [ "$HAVE" = "$FINGERPRINT" ]; then
    echo "$IMAGE is up to date (python $PYVER, numpy $NPVER)"
    exit 0
  fi
fi

ROOT=$(mktemp -d /tmp/meeple-runtime-rootfs.XXXXXX)
trap 'rm -rf "$ROOT"' EXIT
mkdir -p "$ROOT"/usr/bin "$ROOT"/usr/lib "$ROOT"/usr/lib64 "$ROOT"/etc "$ROOT"/tmp "$ROOT"/bot \
         "$ROOT"/proc "$ROOT"/dev "$ROOT"/sys
ln -s usr/bin "$ROOT/bin"; ln -s usr/lib "$ROOT/lib"; ln -s usr/lib64 "$ROOT/lib64"
chmod 1777 "$ROOT/tmp"

cp -L "$PY" "$ROOT/usr/bin/python3.11"
ln -s python3.11 "$ROOT/usr/bin/python3"; ln -s python3.11 "$ROOT/usr/bin/python"

STDLIB=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
mkdir -p "$ROOT$STDLIB"
tar -C "$STDLIB" -c --exclude=./test --exclude=./idlelib --exclude=./tkinter \
    --exclude=./turtledemo --exclude=./ensurepip --exclude=./site-packages \
    --exclude=./dist-packages . | tar -C "$ROOT$STDLIB" -x

ELFS=("$PY" "$STDLIB"/lib-dynload/*.so)
if [ "$WITH_NUMPY" = 1 ]; then
  NPDIR=$("$PY" -c 'import numpy, os; print(os.path.dirname(numpy.__file__))')
  mkdir -p "$ROOT$(dirname "$NPDIR")"
  tar -C "$(dirname "$NPDIR")" -c --exclude=tests numpy | tar -C "$ROOT$(dirname "$NPDIR")" -x
  while IFS= read -r -d '' so; do ELFS+=("$so"); done < <(find "$NPDIR" -name '*.so' -print0)
fi

# Every shared library those binaries load (ldd is transitive), dereferenced into the image.
for lib in $(ldd "${ELFS[@]}" 2>/dev/null | awk '/=> \//{print $3} /^[ \t]*\/[^ ]*ld-linux/{print $1}' | sort -u); do
  cp -L --parents "$lib" "$ROOT" 2>/dev/null || cp -L "$lib" "$ROOT$(dirname "$lib")/"
done

cat > "$ROOT/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/tmp:/usr/sbin/nologin
PASSWD
cat > "$ROOT/etc/group" <<'GROUP'
root:x:0:
nogroup:x:65534:
GROUP

OLD_ID=$(docker image inspect "$IMAGE" --format '{{.Id}}' 2>/dev/null || true)
tar -C "$ROOT" --numeric-owner --owner=0 --group=0 -c . | docker import \
  --change 'ENV PATH=/usr/bin LANG=C.UTF-8 PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 HOME=/tmp' \
  --change 'USER 65534:65534' \
  --change 'WORKDIR /bot' \
  --change 'CMD ["python3", "-u", "main.py"]' \
  --change "LABEL meeple.fingerprint=$FINGERPRINT meeple.python=$PYVER meeple.numpy=$NPVER" \
  - "$IMAGE" >/dev/null

# Smoke test: the image runs Python 3.11 with no network, as nobody, read-only.
docker run --rm --network none --read-only "$IMAGE" python3 -c \
  'import sys, json, os; assert sys.version_info[:2] == (3, 11); assert os.getuid() == 65534; print("ok")' >/dev/null \
  || die "the built image does not run python3"
if [ "$WITH_NUMPY" = 1 ]; then
  docker run --rm --network none --read-only "$IMAGE" python3 -c 'import numpy; numpy.ones(3).sum()' \
    || die "numpy does not import in the built image"
fi
NEW_ID=$(docker image inspect "$IMAGE" --format '{{.Id}}')
if [ -n "$OLD_ID" ] && [ "$OLD_ID" != "$NEW_ID" ]; then
  docker image rm "$OLD_ID" >/dev/null 2>&1 || true   # the previous build, now untagged
fi
echo "built $IMAGE (python $PYVER, numpy $NPVER, $(docker image inspect "$IMAGE" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}'))"
