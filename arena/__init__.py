"""The referee, tournament formats, ratings, the Celery tasks and the `arena` command line.

Uses games/ and sandbox/; knows nothing of HTTP.
"""
