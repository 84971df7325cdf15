"""Who plays whom, on which seed, in which seat: lineups and the schedule of a run.

A lineup names, per seat, what that seat brings (a deck) and which bot plays it. Each lineup is
dealt `deals` times; every deal is played in every seat rotation on the same seed, so seat
statistics are first-player statistics and deck statistics are free of seat bias.

Games are ordered round by round: round j holds deal j of every lineup, each in every rotation.
So any prefix of a schedule is balanced across lineups and seats (a run stopped early, a
sequential test reading games as they come). Game `i` is found arithmetically, so a
million-game schedule is never held as a list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from balance.core.contract import Catalog, GameInfo
from balance.core.errors import ConfigError, did_you_mean
from balance.core.seeding import deal_seed


@dataclass(frozen=True, slots=True)
class Lineup:
    decks: tuple[str, ...]  # per seat, in lineup order
    bots: tuple[str, ...]  # bot specs, per seat
    # Restricted play (balance.impact): per seat, a card its bot may not play ("" for none);
    # empty when no seat is barred
    barred: tuple[str, ...] = ()

    def rotated(self, rotation: int) -> Lineup:
        """The lineup with seat s taking lineup position (s + rotation) mod seats."""
        n = len(self.decks)
        order = [(s + rotation) % n for s in range(n)]
        barred = tuple(self.barred[i] for i in order) if self.barred else ()
        return Lineup(
            tuple(self.decks[i] for i in order), tuple(self.bots[i] for i in order), barred
        )


@dataclass(frozen=True, slots=True)
class GameSlot:
    """One game of the schedule."""

    index: int  # the game's row in games.parquet
    deal: int  # every rotation of a deal shares its seed
    lineup_index: int
    rotation: int
    seed: int
    lineup: Lineup  # already rotated: seat 0 first


@dataclass(frozen=True, slots=True)
class Schedule:
    lineups: tuple[Lineup, ...]
    deals: int  # deals per lineup
    seats: int
    run_seed: int
    # When these lineups are some of a larger schedule's (a card's impact is played only in the
    # lineups that hold it): lineup i is lineup `picked[i]` of that schedule's `picked_from`, and
    # its deals keep that schedule's seeds, so the two play the same deals.
    picked: tuple[int, ...] = ()
    picked_from: int = 0

    @property
    def games(self) -> int:
        return len(self.lineups) * self.deals * self.seats

    def slot(self, index: int) -> GameSlot:
        deal, rotation = divmod(index, self.seats)
        lineup_index = deal % len(self.lineups)
        lineup = self.lineups[lineup_index]
        number = deal
        if self.picked:
            number = deal // len(self.lineups) * self.picked_from + self.picked[lineup_index]
        return GameSlot(
            index,
            deal,
            lineup_index,
            rotation,
            deal_seed(self.run_seed, number),
            lineup.rotated(rotation),
        )

    def pick(self, indexes: Sequence[int], lineups: Sequence[Lineup] = ()) -> Schedule:
        """The deals of lineups `indexes` alone, on the seeds they have here; `lineups` (as
        many) replaces them, e.g. with a seat barred from a card."""
        chosen = tuple(lineups) or tuple(self.lineups[i] for i in indexes)
        base = self.picked or tuple(range(len(self.lineups)))
        width = self.picked_from or len(self.lineups)
        return Schedule(
            chosen, self.deals, self.seats, self.run_seed, tuple(base[i] for i in indexes), width
        )

    def games_per_round(self) -> int:
        """Games in one round: one deal of every lineup, in every rotation."""
        return len(self.lineups) * self.seats


def make_schedule(
    info: GameInfo,
    catalog: Catalog,
    decks: str | Sequence[str] = "all",
    bots: Sequence[str] = ("random",),
    seats: int | None = None,
    games: int = 2000,
    run_seed: int = 0,
) -> Schedule:
    """The schedule for `--decks`, `--bots`, `--seats`, `--games` (at least `games` games)."""
    seats = seats if seats is not None else _default_seats(info, len(bots))
    if not info.min_seats <= seats <= info.max_seats:
        raise ConfigError(
            "--seats",
            None,
            f"{info.name} is played by {info.min_seats}-{info.max_seats} players, not {seats}",
            f"use --seats {info.min_seats}",
        )
    if len(bots) not in (1, seats):
        raise ConfigError(
            "--bots",
            None,
            f"{len(bots)} bots for {seats} seats",
            f"give one bot for all seats or {seats}",
        )
    seat_bots = tuple(bots) * seats if len(bots) == 1 else tuple(bots)
    deck_sets = lineup_decks(catalog, decks, seats)
    lineups = tuple(Lineup(d, seat_bots) for d in deck_sets)
    per_lineup = max(1, -(-games // (len(lineups) * seats)))  # ceil, so at least `games` are played
    return Schedule(lineups, per_lineup, seats, run_seed)


def lineup_decks(catalog: Catalog, decks: str | Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The decks per seat of every lineup for `--decks`: `all`, or names (one for all seats, or
    one per seat).

    Decks that hold something in common (`Catalog.exclusive`) never meet: `all` leaves such
    pairings out, and naming one is refused."""
    usable = [d for d in catalog.decks if seats in catalog.deck_seats.get(d, (seats,))]
    if decks == "all" or decks == ["all"]:
        if not usable:
            raise ConfigError(
                "--decks", None, f"no deck is made for {seats} players", "choose another --seats"
            )
        shared = [(d,) * seats for d in usable if d in catalog.shared]
        own = [d for d in usable if d not in catalog.shared]
        pairings = combinations_with_replacement(own, seats)
        lineups = shared + [p for p in pairings if catalog.clash(p) is None]
        if not lineups:
            raise ConfigError(
                "--decks",
                None,
                f"no {seats} decks can meet: every pairing holds something twice",
                "choose fewer --seats",
            )
        return lineups
    names = [decks] if isinstance(decks, str) else list(decks)
    for name in names:
        if name not in catalog.decks:
            raise ConfigError(
                "--decks", None, f"unknown deck '{name}'", did_you_mean(name, list(catalog.decks))
            )
        if name not in usable:
            raise ConfigError(
                "--decks",
                None,
                f"deck '{name}' is not made for {seats} players",
                f"it is for {catalog.deck_seats[name]}",
            )
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise ConfigError(
            "--decks",
            None,
            f"{len(names)} decks for {seats} seats",
            f"name one deck for all seats or {seats}",
        )
    if any(n in catalog.shared for n in names) and len(set(names)) > 1:
        raise ConfigError(
            "--decks",
            None,
            "a shared setup serves every seat at once",
            "name it alone, e.g. --decks " + names[0],
        )
    clash = catalog.clash(names)
    if clash is not None:
        first, second, item = clash
        if first == second:
            message = (
                f"'{first}' cannot meet itself: it holds {item}, which one seat alone may hold"
            )
        else:
            message = f"'{first}' and '{second}' cannot meet: both hold {item}"
        raise ConfigError(
            "--decks",
            None,
            message,
            "a lineup's decks hold nothing in common; --decks all plays every legal pairing",
        )
    return [tuple(names)]


def _default_seats(info: GameInfo, bots: int) -> int:
    return bots if bots > 1 else info.min_seats
