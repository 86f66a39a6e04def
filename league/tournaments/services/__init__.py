"""Tournament commands: check, decide, append facts to the tournament's stream.

Split by concern: ``commands`` (the runner and shared guards), ``registration`` (creating,
options, registration, check-in, seeding, the draft), ``pairing`` (start, rounds, drops,
late entries), ``results`` (reports, rulings, no-shows, platform matches) and
``corrections`` (corrected and retracted results, rebuilding the cache). What the format
decides (options, the start, each round, standings) lives in ``formats/``.

Callers import this package (``from league.tournaments import services``); every command
is a name here. The organiser is the tournament's creator or a staff user; players act
for themselves.
"""

from ..access import actor_of, is_organiser, pid_of
from ..errors import refuse as _refuse
from ..projection import event_dict
from .commands import NAMESPACE, Outcome, _need_organiser, _need_user, _run, current_state, entrants_save
from .corrections import projection_rebuild, tournament_correct, tournament_retract_match
from .edits import (
    MAX_REQUESTED_BYES,
    tournament_bye_request,
    tournament_bye_set,
    tournament_pairing_swap,
    tournament_readmit,
    tournament_round_repair,
)
from .pairing import tournament_drop, tournament_join_late, tournament_pair_next, tournament_start
from .registration import (
    DRAFT_GAME_FOR_TOURNAMENT,
    UNSET,
    clean_options,
    tournament_check_in,
    tournament_check_in_undo,
    tournament_configure,
    tournament_confirm_entry,
    tournament_create,
    tournament_create_or_get,
    tournament_draft_open,
    tournament_register,
    tournament_seed,
    tournament_withdraw,
)
from .results import (
    clean_result,
    result_from_match,
    tournament_confirm,
    tournament_dispute,
    tournament_match_create,
    tournament_no_show,
    tournament_record_match,
    tournament_report,
    tournament_rule,
)

__all__ = [
    "MAX_REQUESTED_BYES",
    "tournament_bye_request",
    "tournament_bye_set",
    "tournament_pairing_swap",
    "tournament_readmit",
    "tournament_round_repair",
    "DRAFT_GAME_FOR_TOURNAMENT",
    "NAMESPACE",
    "UNSET",
    "Outcome",
    "_need_organiser",
    "_need_user",
    "_refuse",
    "_run",
    "actor_of",
    "clean_options",
    "clean_result",
    "current_state",
    "entrants_save",
    "event_dict",
    "is_organiser",
    "pid_of",
    "projection_rebuild",
    "result_from_match",
    "tournament_check_in",
    "tournament_check_in_undo",
    "tournament_configure",
    "tournament_confirm",
    "tournament_confirm_entry",
    "tournament_create",
    "tournament_create_or_get",
    "tournament_correct",
    "tournament_dispute",
    "tournament_draft_open",
    "tournament_drop",
    "tournament_join_late",
    "tournament_match_create",
    "tournament_no_show",
    "tournament_pair_next",
    "tournament_record_match",
    "tournament_register",
    "tournament_retract_match",
    "tournament_report",
    "tournament_rule",
    "tournament_seed",
    "tournament_start",
    "tournament_withdraw",
]
