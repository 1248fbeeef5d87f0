"""A bot's code as the platform meets it, from the sandbox: the one upload check
(``sandbox.bundle``, the same walk the sandbox unpacks with), the compile check a worker runs,
and whether this machine's sandbox may run strangers' code. The platform reaches the sandbox
only through the arena (pyproject.toml's contracts); this is its door for code."""

from __future__ import annotations

import warnings

from sandbox import SandboxError, get_sandbox
from sandbox.bundle import Bundle, BundleError, check_bundle, human
from sandbox.compile_check import check_code

__all__ = [
    "Bundle",
    "BundleError",
    "boundary_refusal",
    "check_bundle",
    "check_code",
    "human",
]


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
