"""Per-round regulations: hand size, blocks, extra rules."""

from __future__ import annotations

ROUNDS = 3
TRICKS = 8
SEATS = 4
#: round -> (cards dealt per seat, blocks per seat)
HAND_SIZE: dict[int, int] = {1: 8, 2: 9, 3: 9}
BLOCKS: dict[int, int] = {1: 7, 2: 8, 3: 9}
SELL_PRICE = 3  # points per block sold before round 3
UNPLACED_COST = 2  # points per block left in front of a player at the end of round 3
FIVE_COST: dict[int, int] = {5: 0, 0: 1, 10: 2}  # a 5 may count as 0 (pay 1) or 10 (pay 2)
