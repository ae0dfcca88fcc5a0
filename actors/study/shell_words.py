"""The shell's words: the verbs it takes beside the scenario steps, its help text, and what a word being
typed could be (completion), shared by the terminal shell and the live studio.
"""

from __future__ import annotations

from collections.abc import Iterable

from actors.kernel.schedule import LINK_FAULTS
from actors.study.steps import STEP_NAMES
from board.rules.squares import SQUARE_NAMES

DELIVERY_VERBS = ("deliver", *LINK_FAULTS)
"""The verbs that act on one waiting delivery by its number in the pending list (``deliver N``,
``drop N``, ``duplicate N``)."""
SHELL_VERBS = ("board", "pending", "step", "deliver", "run", "mode", "order", "compare", "trace", "save",
               "actors", "help", "quit", "exit")
BY_HAND_VERBS = ("pending", "step", "deliver", "run", "order", *LINK_FAULTS)
"""The verbs that choose deliveries by hand, which need the turnstile of a game in one process."""
FREE_ON_NODES = ("deliveries are chosen by hand in a game in one process only; on nodes the actors"
                 " deliver freely over Ray's links")
VERBS = (*STEP_NAMES, *SHELL_VERBS)

HELP = """\
playing and asking:
  Nc6 | e2e4 | play e4   propose a move (SAN or UCI): the referee's verdict is shown
  legal e2               where the piece on e2 may legally go now
  board                  the board; actors: every actor's name
checks (the scenario grammar, see actors/examples/README.md; each passes or fails):
  reject Ke2 "check" | send white-knight-g1 move g1 f3 | expect yes | expect no "blocked"
  legal e2 e3 e4 (exactly these targets) | square e4 white pawn | fen <FEN> | outcome none
  restarts 0 | start <FEN> (scenarios only: the shell's game has started)
  invariants             no king captured, the board as the journal, every piece where the board
                         holds it
changing the actors:
  crash board [on Survey] | learn c1 archbishop
  lie ghost e3 black pawn hide d7   the board reports a piece that is not there and hides one that
                                    is (until the next lie; lie off: the truth again)
  stall white-knight-g1 [SECONDS]   it answers nothing that long (default 3 ask timeouts, in the
                                    schedule's time): watch the supervisor find it silent and restart it
  drop|duplicate|delay|reorder next [reply to] Apply | partition board 0.5   faults on links: the
                                    next such message (or its reply) befallen; actors cut off a while
delivering by hand:
  mode step       later commands wait for you to choose each delivery (mode auto: arrival order)
  pending         the deliveries waiting, numbered (what each one's sender waits for)
  step            deliver the one that has waited longest; deliver N: the N-th of the list
  drop N          the N-th is lost on its link: sent again after a timeout, it arrives later
  duplicate N     the N-th arrives twice: the copy is recognised and dropped at the other end
  run             deliver the rest in arrival order
  order A B ...   the next command runs its deliveries in this order of actor names (drop A or
                  duplicate A: A's delivery befallen there, as an order line of a scenario)
  compare         the last move's delivery order beside arrival order (the same move from the same
                  position on fresh actors), the first delivery where they part marked
keeping and leaving:
  trace [PATH] (the last command's messages; with PATH: the whole trace as JSON lines)
  save PATH (the session as a scenario: run replays it to the same trace) | help | quit or exit (Ctrl-D)
  Ctrl-C cancels the line being typed; a second Ctrl-C at an empty prompt asks before leaving"""


def completions(names: Iterable[str], line: str, word: str) -> list[str]:
    """What the word being typed could be: a verb first, then the game's actor ``names``, squares and
    verbs' words."""
    if not line.strip() or line.strip() == word:
        pool = list(VERBS)
    else:
        pool = [*names, *SQUARE_NAMES, "step", "auto", "move", "on", "yes", "no", "traversed"]
    return sorted(option for option in set(pool) if option.startswith(word))
