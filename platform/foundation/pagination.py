"""The API's page numbers, read as strictly as every other parameter (foundation/params.py)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination

from foundation.params import int_param


class StrictPageNumberPagination(PageNumberPagination):
    """DRF's pages, but ``?page=`` must be a page number in ASCII digits when it is given:
    DRF reads an empty ``page=`` as page 1 and ``int("١")`` as 1, where the schema promises an
    integer. Anything else is DRF's own answer to a page that does not exist (404)."""

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        raw = request.query_params.get(self.page_query_param)
        if raw is not None and int_param(raw, minimum=1) is None:
            raise NotFound(self.invalid_page_message.format(page_number=raw[:20], message=""))
        return super().paginate_queryset(queryset, request, view)
