"""The harness of the fault-injection tests: each test starts its own redis-server (so it can
kill and restart it without touching other tests) and its own Celery worker processes, against
the test's PostgreSQL database, and checks afterwards that every match was recorded exactly
once and that the ratings are what a serial replay of the recorded matches gives.

Everything is bounded in time: waits poll the database and give up with the workers' logs.
The harness is in modules by what they hold: ``waits``, ``redis_servers``, ``database`` (its
URL and a proxy to cut), ``workers``, ``arena_matches`` (the platform's side) and
``invariants``; this conftest only makes their fixtures visible to the tests here.
"""

from tests.resilience.arena_matches import arena  # noqa: F401  fixtures, found by name
from tests.resilience.database import db_proxy  # noqa: F401
from tests.resilience.redis_servers import redis_server  # noqa: F401
from tests.resilience.workers import workers  # noqa: F401
