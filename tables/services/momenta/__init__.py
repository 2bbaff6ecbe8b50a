"""Momenta play commands, one module per noun: rolls (and their plans and cards), the
allocation of patterns, Assists, trauma, and the GM's templates and patterns.

Same shape as every service: one function per command a person can give. Each
opens a transaction, locks the campaign row, reads what it decides from under
that lock, checks who may do it, lets rules/ decide, changes pools only through
change_pool (one ledger line each, with its reason, PM-13) and appends one
TableEvent. Callers import the commands from here (`momenta.roll_momenta`).
"""

from tables.policy.roll_plans import RollPlan, RollRequest, plan_roll, result_of
from tables.services.momenta.allocation import choose_allocation
from tables.services.momenta.assists import (
    ASSIST_ANSWERS,
    HELPER_ANSWERS,
    answer_as_helper,
    answer_assist,
    request_assist,
    speaks_for_helper,
)
from tables.services.momenta.loader import RollRows, load_roll
from tables.services.momenta.rolls import SITUATIONAL, reveal_roll, roll_momenta
from tables.services.momenta.templates import (
    delete_roll_template,
    save_custom_pattern,
    save_roll_template,
)
from tables.services.momenta.trauma import record_trauma

__all__ = [
    "ASSIST_ANSWERS",
    "HELPER_ANSWERS",
    "SITUATIONAL",
    "RollPlan",
    "RollRequest",
    "RollRows",
    "answer_as_helper",
    "answer_assist",
    "choose_allocation",
    "delete_roll_template",
    "load_roll",
    "plan_roll",
    "record_trauma",
    "request_assist",
    "result_of",
    "reveal_roll",
    "roll_momenta",
    "save_custom_pattern",
    "save_roll_template",
    "speaks_for_helper",
]
