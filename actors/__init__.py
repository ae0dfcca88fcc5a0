"""chess-actors: piece, board and referee actors (pykka) that judge chess moves by messages.

The pure rules live in :mod:`board`; this package is the actor shell and the command line. What a
program needs is importable from here (``from actors import ActorGame, SystemPool, Accepted``): the
game, the session, the pools, the errors, the links between actors, the trace and its exporters, the
scenario runner and the verdicts; the messages are under :mod:`actors.protocol`. The public names are
the imports of the ``TYPE_CHECKING`` block below, one a line, and each is loaded from its module the
first time it is asked for (:mod:`board.lazy`): the command line imports ``actors.cli`` through this
package, and its start-up must not pay for the actors, pykka or structlog before a command needs them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from board import __version__ as __version__
from board.lazy import lazy_names

if TYPE_CHECKING:
    from actors.cli.terminal_text import terminal_safe as terminal_safe
    from actors.cli.terminal_text import terminal_safe_line as terminal_safe_line
    from actors.clusters.nodes import Nodes as Nodes
    from actors.game.game import ActorGame as ActorGame
    from actors.game.game import PieceHandle as PieceHandle
    from actors.game.moves import final_fen as final_fen
    from actors.game.moves import replay_moves as replay_moves
    from actors.game.pool import SystemPool as SystemPool
    from actors.game.replay import MoveReport as MoveReport
    from actors.game.replay import Pause as Pause
    from actors.game.replay import replay_with_actors as replay_with_actors
    from actors.game.replay import watch_game as watch_game
    from actors.game.session import CheckMoveSession as CheckMoveSession
    from actors.kernel.errors import ActorFailure as ActorFailure
    from actors.kernel.errors import ActorTimeout as ActorTimeout
    from actors.kernel.errors import ActorUnavailable as ActorUnavailable
    from actors.kernel.errors import GameClosed as GameClosed
    from actors.kernel.errors import LinkFailure as LinkFailure
    from actors.kernel.errors import RestartIntensityExceeded as RestartIntensityExceeded
    from actors.kernel.links import LinkModel as LinkModel
    from actors.kernel.links import parse_network as parse_network
    from actors.kernel.network import Network as Network
    from actors.protocol import Accepted as Accepted
    from actors.protocol import Rejected as Rejected
    from actors.protocol import Verdict as Verdict
    from actors.studio import page_html as page_html
    from actors.studio import write_page as write_page
    from actors.study.runner import run_scenario as run_scenario
    from actors.study.script import parse_scenario as parse_scenario
    from actors.study.steps import Scenario as Scenario
    from actors.study.steps import ScenarioError as ScenarioError
    from actors.tracing.event import TraceEvent as TraceEvent
    from actors.tracing.export import read_jsonl as read_jsonl
    from actors.tracing.export import to_jsonl as to_jsonl
    from actors.tracing.export import to_perfetto as to_perfetto
    from actors.tracing.mermaid import to_markdown as to_markdown
    from actors.tracing.mermaid import to_mermaid as to_mermaid
    from actors.tracing.recorder import TraceRecorder as TraceRecorder
    from board.errors import AmbiguousMoveError as AmbiguousMoveError
    from board.errors import ChessActorsError as ChessActorsError
    from board.errors import IllegalMoveError as IllegalMoveError
    from board.errors import InputError as InputError

__getattr__, __dir__ = lazy_names(__name__)
