"""Fuzzing the zip walk (sandbox.zipwalk) with Hypothesis: for generated zips (names with
clashes, long names, odd characters, every compression method, sizes, damaged bytes), the
upload check either refuses with a BundleError whose public text names nothing of the zip, or
the worker's unpacking succeeds and writes exactly the files the Bundle lists. Nothing else
may escape either of them."""

from __future__ import annotations

import io
import tempfile
import warnings
import zipfile
from pathlib import Path

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from sandbox.bundle import PUBLIC_MESSAGE, BundleError, check_bundle, extract_zip
from tests.security.badfiles import GOOD_MAIN, zip_of

METHODS = [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]

# Pieces of names that matter to the walk: clashes by case, the entry point, archivers' junk,
# dots, separators and characters that mean something to some file system.
_pieces = st.sampled_from(
    ["main.py", "lib", "Lib", "LIB", "x.py", "a", "__MACOSX", ".", "..", "", "é", "ß", " ", "-"]
)
_odd = st.text(alphabet=st.sampled_from(list("aZ9_.-é字 \\:\x00\n\x7f")), min_size=1, max_size=4)
_long = st.integers(min_value=100, max_value=300).map(lambda n: "n" * n)
_safe = st.text(alphabet=st.sampled_from(list("abAB_.-é字 ")), min_size=1, max_size=12)
# Mostly names a file system takes (so that many zips are accepted and unpacked), some not.
_segment = st.one_of(_safe, _safe, _safe, _pieces, _pieces, _odd, _long)
_name = st.lists(_segment, min_size=1, max_size=4).map("/".join) | st.lists(
    st.just("d"), min_size=14, max_size=20
).map(lambda parts: "/".join(parts) + "/x.py")
_content = st.one_of(
    st.binary(max_size=64),
    st.sampled_from([GOOD_MAIN, b"\xff\xfe bad utf-8", b"0" * 70_000]),
)
_method = st.sampled_from(METHODS)
_member = st.tuples(_name | st.sampled_from(["lib/", "lib", "x/", "bot/lib.py"]), _content, _method)
_main = st.tuples(
    st.sampled_from(["main.py", "bot/main.py", "./main.py"]), st.just(GOOD_MAIN), _method
)
_members = st.one_of(
    st.tuples(_main, st.lists(_member, max_size=6)).map(lambda t: [t[0], *t[1]]),
    st.tuples(_main, st.lists(_member, max_size=6)).map(lambda t: [*t[1], t[0]]),
    st.lists(_member, min_size=1, max_size=6),
)


def _zip(members: list[tuple[str, bytes, int]]) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are part of the point
        with zipfile.ZipFile(buf, "w") as zf:
            for name, data, method in members:
                zf.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    return buf.getvalue()


def _damage(data: bytes, edits: list[tuple[int, int]]) -> bytes:
    out = bytearray(data)
    for at, value in edits:
        out[at % len(out)] = value
    return bytes(out)


def _check_one(data: bytes, names: list[str]) -> None:
    try:
        bundle = check_bundle("bot.zip", data)
    except BundleError as exc:
        event("refused: " + " ".join(str(exc).split()[:3]))
        assert exc.public == PUBLIC_MESSAGE
        for name in names:
            for part in name.split("/"):
                if len(part) >= 4:
                    assert part not in exc.public
        return
    event("accepted")
    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(tmp)
        root = extract_zip(io.BytesIO(data), dest)
        written = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
        assert written == sorted(bundle.files)
        everything = sorted(str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file())
        assert len(everything) == len(written)  # nothing outside the bot's folder
        assert (root / "main.py").is_file()


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(members=_members)
@example(members=[("main.py", GOOD_MAIN, 8), ("lib", b"", 0), ("lib/x.py", b"", 8)])
@example(members=[("main.py", GOOD_MAIN, 12), ("a" * 300, b"", 14)])
def test_what_the_check_accepts_unpacks_to_its_files(
    members: list[tuple[str, bytes, int]],
) -> None:
    _check_one(_zip(members), [m[0] for m in members])


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    method=st.sampled_from(METHODS),
    edits=st.lists(
        st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=255)),
        min_size=1,
        max_size=4,
    ),
    extra=st.binary(max_size=2000),
)
def test_damaged_zips_are_refused_or_unpacked_never_crash(
    method: int, edits: list[tuple[int, int]], extra: bytes
) -> None:
    data = zip_of({"main.py": GOOD_MAIN, "lib/data.bin": extra + b"x" * 3000}, compression=method)
    _check_one(_damage(data, edits), ["main.py", "lib/data.bin"])
