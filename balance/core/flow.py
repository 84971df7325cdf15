"""The kit's flow engine: a game runs as tasks on a stack, and a task that needs a seat's choice
poses it and names the task that takes the answer. Play stops there and resumes there, once.

A task is a tuple `(code, *arguments)`; its code picks the handler that runs it. A game declares
its task kinds in one `Tasks` table, whose codes number themselves in declaration order (no
hand-kept `range(30)` to keep in step with a list), and binds each kind's handler where the
handler is written. A state that runs on the engine holds four fields (`Flowing`): `todo`, the
stack (the last task runs next); `asking`, the pending decision or None; `cont`, the task that
takes the answer to `asking`, the chosen option appended as its last argument; `over`, set when
the game has ended (nothing runs after that).

Why a stack of plain tuples: a clone copies the stack with one list copy (tuples are shared),
so a search's copies resume exactly where the original stood, and running a task is one list
pop and one indexed call. The decision may be lazy (`Decision.lazy`): the engine never reads its
options, only `answer` does, so a search copy that is never asked never lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from balance.core.codes import Names
from balance.core.contract import Decision

Task = tuple[Any, ...]  # (code, *arguments)


class Flowing(Protocol):
    """What the engine reads and writes of a game state."""

    todo: list[Task]  # the tasks to run, the last one next
    asking: Decision | None  # the pending decision
    cont: Task  # the task that takes the answer to `asking`
    over: bool  # the game has ended


S = TypeVar("S", bound=Flowing)
Handler = Callable[[S, Task], None]


class Tasks(Generic[S]):
    """A game's task kinds: `declare` numbers them, `bind` gives each its handler."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.kinds = Names()  # the task kinds' names, numbered as declared
        self.handlers: list[Handler[S]] = []

    @property
    def names(self) -> tuple[str, ...]:
        return self.kinds.names

    def declare(self, name: str) -> int:
        """A new task kind's code: the next number."""
        try:
            code = self.kinds.add(name)
        except ValueError:
            raise ValueError(f"{self.game}: task '{name}' declared twice") from None
        self.handlers.append(_unbound)
        return code

    def bind(self, code: int, handler: Handler[S]) -> None:
        """`handler(state, task)` runs the tasks of kind `code`."""
        if self.handlers[code] is not _unbound:
            raise ValueError(f"{self.game}: task '{self.names[code]}' bound twice")
        self.handlers[code] = handler

    def check(self) -> None:
        """Every declared kind has its handler: call once the game's modules are imported."""
        unbound = [n for n, h in zip(self.names, self.handlers, strict=True) if h is _unbound]
        if unbound:
            raise ValueError(f"{self.game}: tasks without a handler: {', '.join(unbound)}")


def _unbound(state: Any, task: Task) -> None:
    raise RuntimeError(f"task {task[0]} has no handler (Tasks.check finds such tasks at import)")


def run(state: S, tasks: Tasks[S]) -> None:
    """Run tasks until a decision is pending, the stack is empty or the game is over (then what
    is left on the stack is dropped: nothing runs after the end)."""
    todo = state.todo
    handlers = tasks.handlers
    while todo and state.asking is None and not state.over:
        task = todo.pop()
        handlers[task[0]](state, task)
    if state.over:
        todo.clear()


def ask(state: Flowing, decision: Decision, cont: Task) -> None:
    """Pose `decision`; its answer goes to `cont` (`answer`)."""
    state.asking = decision
    state.cont = cont


def answer(state: Flowing, option: int) -> None:
    """Take the pending decision's `option`: the task `cont` with the chosen option appended
    goes on the stack, to run next (`run`)."""
    asking = state.asking
    if asking is None:
        raise ValueError("no decision is pending")
    chosen = asking.options[option]
    state.asking = None
    state.todo.append(state.cont + (chosen,))  # a tuple sum: no list built on the way


def resume(state: S, option: int, tasks: Tasks[S]) -> None:
    """`answer` then `run`, in one call: the answer task runs at once instead of going on the
    stack first (it would run next). A game's `apply` is exactly this; it saves the answer
    task's trip through the stack on every decision."""
    asking = state.asking
    if asking is None:
        raise ValueError("no decision is pending")
    chosen = asking.options[option]
    state.asking = None
    if state.over:
        state.todo.clear()
        return
    cont = state.cont
    handlers = tasks.handlers
    handlers[cont[0]](state, cont + (chosen,))
    # `run`'s loop, written out: one call less on every decision
    todo = state.todo
    while todo and state.asking is None and not state.over:
        task = todo.pop()
        handlers[task[0]](state, task)
    if state.over:
        todo.clear()
