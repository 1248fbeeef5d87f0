"""A bot's code as the platform meets it, from the sandbox: the one upload check
(``sandbox.bundle``, the same walk the sandbox unpacks with) and its language
(``sandbox.languages``), the compile check and the build a worker runs,
and whether this machine's sandbox may run strangers' code. The platform reaches the sandbox
only through the arena (pyproject.toml's contracts); this is its door for code."""

from __future__ import annotations

import warnings

from sandbox import SandboxError, get_sandbox, registry
from sandbox.build_upload import build_upload, build_upload_to
from sandbox.bundle import Bundle, BundleError, check_bundle, format_bytes
from sandbox.bundle_language import check_files, check_upload
from sandbox.compile_check import check_code
from sandbox.languages import DEFAULT as DEFAULT_LANGUAGE
from sandbox.languages import LANGUAGES, Language, get_language

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Bundle",
    "BundleError",
    "Language",
    "boundary_refusal",
    "build_upload",
    "build_upload_to",
    "check_bundle",
    "check_code",
    "check_files",
    "check_upload",
    "format_bytes",
    "get_language",
    "sandbox_names",
]


def sandbox_names() -> tuple[str, ...]:
    """The sandbox backends a setting may name (``sandbox.registry``: the built-in ones and
    any a plugin registered)."""
    return registry.names()


def boundary_refusal(choice: str) -> str:
    """Why the sandbox ``choice`` (``auto``, ``docker``, ``process``...) cannot hold strangers'
    code on this machine: its error if it cannot start, a sentence if it is no security
    boundary, or "" when it is one."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            backend = get_sandbox(choice)
    except SandboxError as exc:
        return str(exc)
    if backend.is_security_boundary:
        return ""
    return (
        f"the {backend.name or 'process'} sandbox here is not a security boundary, so uploads "
        "of users other than the operator wait for Docker (or for the operator to set "
        "ARENA_ALLOW_UNSAFE_SANDBOX=true)"
    )
