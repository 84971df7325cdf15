"""The kit's flow engine (balance/core/flow.py): tasks run until a decision, which resumes once."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from balance.core import flow
from balance.core.contract import Decision
from balance.core.flow import Task, Tasks


@dataclass
class Counting:
    """A toy game: count up, asking seat 0 at every third step how much to add."""

    todo: list[Task] = field(default_factory=list)
    asking: Decision | None = None
    cont: Task = ()
    over: bool = False
    total: int = 0
    ran: list[str] = field(default_factory=list)


TASKS: Tasks[Counting] = Tasks("counting")
STEP = TASKS.declare("step")
ADD = TASKS.declare("add")


def step(s: Counting, task: Task) -> None:
    s.ran.append(f"step {task[1]}")
    if task[1] % 3 == 0:
        flow.ask(s, Decision(0, "add", (1, 10)), (ADD,))
    else:
        s.total += 1
    if s.total >= 20:
        s.over = True


def add(s: Counting, task: Task) -> None:
    s.ran.append(f"add {task[1]}")
    s.total += task[1]


TASKS.bind(STEP, step)
TASKS.bind(ADD, add)
TASKS.check()


def test_codes_number_themselves_in_declaration_order() -> None:
    assert (STEP, ADD) == (0, 1)
    assert TASKS.names == ("step", "add")


def test_tasks_run_in_stack_order_until_a_decision_then_resume_with_the_answer_once() -> None:
    s = Counting(todo=[(STEP, 3), (STEP, 2), (STEP, 1)])
    flow.run(s, TASKS)
    assert s.ran == ["step 1", "step 2", "step 3"] and s.total == 2
    assert s.asking is not None and s.asking.kind == "add" and s.todo == []
    flow.answer(s, 1)  # 10
    assert s.asking is None and s.todo == [(ADD, 10)]
    flow.run(s, TASKS)
    assert s.ran[-1] == "add 10" and s.total == 12
    with pytest.raises(ValueError, match="no decision is pending"):
        flow.answer(s, 0)


def test_nothing_runs_after_the_game_is_over() -> None:
    s = Counting(total=19, todo=[(STEP, 5), (STEP, 4), (STEP, 1)])
    flow.run(s, TASKS)
    assert s.over and s.ran == ["step 1"] and s.todo == []


def test_a_lazy_decision_is_posed_without_listing_its_options() -> None:
    listed: list[int] = []

    def options(n: int) -> tuple[int, ...]:
        listed.append(n)
        return tuple(range(n))

    s = Counting()
    flow.ask(s, Decision.lazy(0, "pick", options, 4), (ADD,))
    assert listed == []
    flow.answer(s, 3)
    assert listed == [4] and s.todo == [(ADD, 3)]


def test_a_kind_declared_or_bound_twice_or_left_unbound_is_refused() -> None:
    tasks: Tasks[Counting] = Tasks("broken")
    code = tasks.declare("a")
    with pytest.raises(ValueError, match="declared twice"):
        tasks.declare("a")
    tasks.declare("b")
    tasks.bind(code, add)
    with pytest.raises(ValueError, match="bound twice"):
        tasks.bind(code, add)
    with pytest.raises(ValueError, match="without a handler: b"):
        tasks.check()


def test_resume_is_answer_then_run() -> None:
    answered = Counting(todo=[(STEP, 3), (STEP, 2), (STEP, 1)])
    resumed = Counting(todo=[(STEP, 3), (STEP, 2), (STEP, 1)])
    for s in (answered, resumed):
        flow.run(s, TASKS)
    flow.answer(answered, 1)
    flow.run(answered, TASKS)
    flow.resume(resumed, 1, TASKS)
    assert resumed == answered and resumed.ran[-1] == "add 10" and resumed.total == 12
    with pytest.raises(ValueError, match="no decision is pending"):
        flow.resume(Counting(), 0, TASKS)


def test_resume_runs_nothing_once_the_game_is_over() -> None:
    s = Counting(total=19, over=True, todo=[(STEP, 1)])
    flow.ask(s, Decision(0, "add", (1, 10)), (ADD,))
    flow.resume(s, 0, TASKS)
    assert s.ran == [] and s.todo == [] and s.asking is None
