"""What a match announces. ``matches`` owns a match's life; whoever cares about results
(ratings, tournaments, leagues, the ladder) listens here, so this app imports none of them.

Both signals are sent inside the transaction that records the match, after its row is locked:
a receiver's writes commit or roll back with the result itself, and a match is announced at
most once (a second recording of the same match finds it done and sends nothing).
"""

from __future__ import annotations

from django.dispatch import Signal

#: ``sender=Match, match=<Match>, seats=[<MatchSeat>, ...]`` (seat order, results filled in).
match_finished = Signal()

#: ``sender=Match, match=<Match>``: the platform failed the match (``status == "error"``).
match_failed = Signal()
