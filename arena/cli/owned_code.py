"""The code of the caller's own uploaded versions, fetched from the site they are logged in to,
so that a re-run (``arena play --from-replay``) plays the author's own recorded bots on once
the game leaves the record. Another user's version is never sent (the site answers 404): that
seat falls back to a built-in bot."""

from __future__ import annotations

import base64
import binascii
import hashlib

from arena.cli.site import Site, SiteError, load_credentials
from arena.codestore import SUFFIXES, cache_dir, keep_file
from arena.contract import VERSION_PREFIX


def version_id(spec: str) -> int | None:
    """The id in a replay seat's ``version:<id>`` (the contract's name of an uploaded
    version), else None; a replay file is input, so a malformed id is None, not an error."""
    digits = spec.removeprefix(VERSION_PREFIX)
    if digits == spec or not (digits.isascii() and digits.isdigit() and len(digits) <= 18):
        return None
    return int(digits)


class OwnedCode:
    """Fetches versions' code from the logged-in site, each at most once per command.

    ``why[version]`` says why a version's code is not used (for the command to print)."""

    def __init__(self) -> None:
        creds = load_credentials()
        self.site = Site(creds.url, creds.token) if creds else None
        self.why: dict[int, str] = {}
        self._found: dict[int, str | None] = {}

    def path(self, version: int) -> str | None:
        """A local file holding ``version``'s code (verified against its SHA-256), or None
        when it is not the caller's, the caller is not logged in, or the site cannot say."""
        if version not in self._found:
            self._found[version] = self._fetch(version)
        return self._found[version]

    def _fetch(self, version: int) -> str | None:
        if self.site is None:
            self.why[version] = "not logged in (arena login URL), so its code was not fetched"
            return None
        try:
            answer = self.site.get(f"/api/versions/{version}/code/")
        except SiteError as e:
            mine = e.status not in (401, 403, 404)
            self.why[version] = str(e) if mine else f"not yours on {self.site.url}"
            return None
        try:
            data = base64.b64decode(str(answer["code_base64"]), validate=True)
            digest, suffix = str(answer["sha256"]), str(answer["suffix"])
        except (KeyError, TypeError, binascii.Error):
            self.why[version] = "the site's answer is not a version's code"
            return None
        if hashlib.sha256(data).hexdigest() != digest or suffix not in SUFFIXES:
            self.why[version] = "the code received does not match its hash"
            return None
        return keep_file(data, cache_dir() / f"{digest}{suffix}")
