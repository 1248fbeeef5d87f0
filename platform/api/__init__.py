"""The REST API's URL map (``/api/...``): the top of the API, as site_pages is of the pages.
Each domain app keeps its own endpoints and serializers in its ``api.py``; this app only
mounts them, so it may import every app and none imports it."""
