"""The fields of a Tri*Area position, their JSON form, and the deal that starts each round.

:class:`TriAreaPosition` is the bottom of the state's layers: the settlement
(``settlement.py``) and the turns (``turns.py``) build on it, and ``state.py`` puts the
interface on top.
"""

from __future__ import annotations

from typing import Self

from games.base import JSON, GameError, GameState
from games.rng import Rng
from games.tri_area.cards import round_deck, sort_hand
from games.tri_area.rounds import BLOCKS, HAND_SIZE, SEATS

Event = dict[str, JSON]

_FIELDS = (
    "players",
    "options",
    "rng",
    "round",
    "trick",
    "phase",
    "start",
    "leader",
    "turn",
    "pos",
    "hands",
    "supply",
    "sold",
    "scores",
    "board",
    "table",
    "values",
    "adopted",
    "rh",
    "builder",
    "built",
    "lead_decl",
    "revealed",
    "tricks",
    "history",
)


class TriAreaPosition(GameState):
    """The whole match as plain ints, strings and lists (see ``to_json`` for the fields)."""

    def __init__(self) -> None:
        self.players = 4
        self.options: dict[str, JSON] = {}
        self.rng = 0
        self.round = 1
        self.trick = 1
        self.phase = "meeting"
        self.start = 0  # the round's start player
        self.leader = 0  # the current trick's leader
        self.turn: int | None = 0  # the seat owing the next decision (NPCs included)
        self.pos = 0  # how many seats have acted in the current ordered phase
        self.hands: list[list[str]] = [[] for _ in range(SEATS)]
        self.supply = [0] * SEATS  # blocks in front of each seat
        self.sold = [0] * SEATS
        self.scores = [0] * SEATS
        self.board: list[list[int]] = [[] for _ in range(16)]
        self.table: list[str | None] = [None] * SEATS  # cards played this trick
        self.values: list[int | None] = [None] * SEATS  # their effective ranks
        self.adopted: str | None = None
        self.rh: list[int | None] = [None, None]
        self.builder = 0  # 0: Rightholder 1 builds, 1: Rightholder 2
        self.built: int | None = None  # square of the basic construction (for ``extra``)
        self.lead_decl: list[str | None] = [None] * SEATS
        self.revealed = False
        self.tricks: list[dict[str, JSON]] = []  # this round's meetings, public
        self.history: list[dict[str, JSON]] = []  # per-round settlement summaries, public

    @property
    def players(self) -> int:
        return self._players

    @players.setter
    def players(self, n: int) -> None:
        self._players = n

    def to_json(self) -> dict[str, JSON]:
        return {
            "players": self.players,
            "options": dict(self.options),
            "rng": self.rng,
            "round": self.round,
            "trick": self.trick,
            "phase": self.phase,
            "start": self.start,
            "leader": self.leader,
            "turn": self.turn,
            "pos": self.pos,
            "hands": [list(h) for h in self.hands],
            "supply": list(self.supply),
            "sold": list(self.sold),
            "scores": list(self.scores),
            "board": [list(s) for s in self.board],
            "table": list(self.table),
            "values": list(self.values),
            "adopted": self.adopted,
            "rh": list(self.rh),
            "builder": self.builder,
            "built": self.built,
            "lead_decl": list(self.lead_decl),
            "revealed": self.revealed,
            "tricks": [_copy_trick(t) for t in self.tricks],
            "history": [dict(h) for h in self.history],
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Self:
        if not isinstance(data, dict):
            raise GameError("tri-area: a state must be a JSON object")
        missing = [f for f in _FIELDS if f not in data]
        if missing:
            raise GameError(f"tri-area: state is missing field(s) {', '.join(missing)}")
        st = cls()
        try:
            st.players = int(data["players"])
            st.options = dict(data["options"])
            st.rng = int(data["rng"])
            st.round = int(data["round"])
            st.trick = int(data["trick"])
            st.phase = str(data["phase"])
            st.start = int(data["start"])
            st.leader = int(data["leader"])
            st.turn = None if data["turn"] is None else int(data["turn"])
            st.pos = int(data["pos"])
            st.hands = [list(h) for h in data["hands"]]
            st.supply = list(data["supply"])
            st.sold = list(data["sold"])
            st.scores = list(data["scores"])
            st.board = [list(s) for s in data["board"]]
            st.table = list(data["table"])
            st.values = list(data["values"])
            st.adopted = data["adopted"]
            st.rh = list(data["rh"])
            st.builder = int(data["builder"])
            st.built = data["built"]
            st.lead_decl = list(data["lead_decl"])
            st.revealed = bool(data["revealed"])
            st.tricks = [_copy_trick(t) for t in data["tricks"]]
            st.history = [dict(h) for h in data["history"]]
        except (TypeError, ValueError) as exc:
            raise GameError(f"tri-area: malformed state ({exc})") from None
        if len(st.hands) != SEATS or len(st.board) != 16 or not 1 <= st.players <= SEATS:
            raise GameError("tri-area: malformed state (wrong number of seats or squares)")
        return st

    def _start_round(self, round_no: int) -> list[Event]:
        self.round = round_no
        rng = Rng(self.rng)
        if round_no > 1:
            # Highest score starts; a tie goes to the first tied seat clockwise from the
            # previous start player [INTERP].
            best = max(self.scores)
            self.start = next(
                (self.start + k) % SEATS
                for k in range(SEATS)
                if self.scores[(self.start + k) % SEATS] == best
            )
        deck = round_deck(round_no)
        rng.shuffle(deck)
        self.rng = rng.state
        size = HAND_SIZE[round_no]
        self.hands = [deck[i * size : (i + 1) * size] for i in range(SEATS)]
        for hand in self.hands:
            sort_hand(hand)
        self.supply = [BLOCKS[round_no]] * SEATS
        self.sold = [0] * SEATS
        self.board = [[] for _ in range(16)]
        self.lead_decl = [None] * SEATS
        self.revealed = False
        self.tricks = []
        self.trick = 1
        self.leader = self.start
        # The last meeting belongs to the last round: round 3 opens with declarations and
        # sales, and its observation must not show the old table as current.
        self._clear_meeting()
        events: list[Event] = [
            {
                "type": "round_start",
                "round": round_no,
                "start_player": self.start,
                "hand_size": size,
                "blocks": BLOCKS[round_no],
            }
        ]
        if round_no == 3:
            self.phase = "lead_declaration"
            self.pos = 0
            self.turn = self.start
        else:
            self._begin_trick()
        return events

    def _begin_trick(self) -> None:
        self.phase = "meeting"
        self.pos = 0
        self.turn = self.leader
        self._clear_meeting()

    def _clear_meeting(self) -> None:
        self.table = [None] * SEATS
        self.values = [None] * SEATS
        self.adopted = None
        self.rh = [None, None]
        self.builder = 0
        self.built = None


def _copy_trick(t: dict[str, JSON]) -> dict[str, JSON]:
    return {
        "leader": t["leader"],
        "cards": list(t["cards"]),
        "values": list(t["values"]),
        "suit": t["suit"],
        "rightholders": list(t["rightholders"]),
    }
