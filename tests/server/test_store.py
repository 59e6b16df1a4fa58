"""The game store on SQLite and on PostgreSQL: setup + append-only move log, rebuilt by replay."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from civtable import games
from civtable.bots import make_bot
from civtable.store import (
    NOTIFY_CHANNEL,
    Append,
    NewGame,
    SeatSpec,
    SeatTakenError,
    StaleSequenceError,
    Store,
    StoreError,
    UnknownGameIdError,
    default_db_url,
    normalize_url,
)


def _setup(players: int = 3, seed: int = 11) -> NewGame:
    return NewGame(
        game="seven-wonders",
        players=players,
        seed=seed,
        options={"sides": "A"},
        seats=[SeatSpec("human")] + [SeatSpec("bot", bot="random")] * (players - 1),
        name="table",
    )


@pytest.fixture
def store(db_url: str) -> Store:
    s = Store.open(db_url)
    yield s
    s.close()


def test_migrations_bring_an_empty_database_to_head(store: Store) -> None:
    assert store.schema_revision() == "0003"
    store.migrate()  # idempotent
    assert store.schema_revision() == "0003"


def test_a_database_of_the_first_schema_is_upgraded_with_its_games(db_url: str) -> None:
    """0002 adds ``suggestions`` (off) to the games stored before it."""
    old = Store.open(db_url, migrate=False)
    old.migrate("0001")
    with old.engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO games (id, game, name, players, seed, options, status, seq, autostart,"
            " created_at, updated_at) VALUES ('g1', 'seven-wonders', '', 3, 1, '{}', 'lobby', 0,"
            " 1, '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
        )
        for seat in range(3):
            conn.exec_driver_sql(
                f"INSERT INTO seats (game_id, seat, kind, name) VALUES ('g1', {seat}, 'human', '')"
            )
    old.close()
    store = Store.open(db_url)
    assert store.schema_revision() == "0003"
    record = store.get_game("g1")
    assert record.suggestions is False
    assert record.players == 3
    store.close()


def test_setup_round_trips(store: Store) -> None:
    g = store.create_game(_setup())
    back = store.get_game(g.id)
    assert (back.game, back.players, back.seed, back.options) == (
        "seven-wonders",
        3,
        11,
        {"sides": "A"},
    )
    assert back.status == "lobby"
    assert back.seq == 0
    assert back.name == "table"
    assert [s.kind for s in back.seats] == ["human", "bot", "bot"]
    assert [s.taken for s in back.seats] == [False, True, True]
    assert back.created_at.tzinfo is not None


def test_take_seat_once_then_refuse(store: Store) -> None:
    g = store.create_game(_setup())
    store.take_seat(g.id, 0, "Ann", "h" * 64)
    seat = store.get_game(g.id).seats[0]
    assert (seat.name, seat.token_hash, seat.taken) == ("Ann", "h" * 64, True)
    with pytest.raises(SeatTakenError):
        store.take_seat(g.id, 0, "Bob", "x" * 64)
    with pytest.raises(SeatTakenError):  # a bot seat is never free
        store.take_seat(g.id, 1, "Bob", "x" * 64)
    assert store.get_game(g.id).seats[0].name == "Ann"
    assert store.seats_by_token_hash(["h" * 64, "nope"]) == [(g.id, 0)]


def test_unknown_game_is_reported(store: Store) -> None:
    with pytest.raises(UnknownGameIdError):
        store.get_game("missing")
    with pytest.raises(UnknownGameIdError):
        store.append_move("missing", 0, 0, 0)
    with pytest.raises(UnknownGameIdError):
        store.take_seat("missing", 0, "x", "y")


def test_moves_append_only_in_sequence(store: Store) -> None:
    g = store.create_game(_setup())
    with pytest.raises(StaleSequenceError):  # not started: no moves yet
        store.append_move(g.id, 0, 0, 1)
    store.set_status(g.id, "active", expect="lobby")
    store.append_move(g.id, 0, 0, 5)
    store.append_move(g.id, 1, 2, 7)
    with pytest.raises(StaleSequenceError):  # seq 1 is taken: a stale writer
        store.append_move(g.id, 1, 1, 9)
    with pytest.raises(StaleSequenceError):  # a gap is refused too
        store.append_move(g.id, 5, 1, 9)
    assert store.moves(g.id) == [(0, 5), (2, 7)]
    assert store.moves(g.id, upto=1) == [(0, 5)]
    assert store.get_game(g.id).seq == 2 == store.move_count(g.id)


def test_concurrent_writers_of_one_seq_only_one_wins(store: Store) -> None:
    g = store.create_game(_setup())
    store.set_status(g.id, "active")
    barrier = threading.Barrier(4)
    outcome: list[str] = []

    def write(action: int) -> None:
        barrier.wait()
        try:
            store.append_move(g.id, 0, 0, action)
            outcome.append("ok")
        except StaleSequenceError:
            outcome.append("stale")

    threads = [threading.Thread(target=write, args=(a,)) for a in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcome) == ["ok", "stale", "stale", "stale"]
    assert len(store.moves(g.id)) == 1
    assert store.get_game(g.id).seq == 1


def test_finishing_move_marks_the_game_over_atomically(store: Store) -> None:
    g = store.create_game(_setup())
    store.set_status(g.id, "active")
    store.append_move(g.id, 0, 0, 3, finished={"scores": [1, 2, 3]})
    back = store.get_game(g.id)
    assert back.status == "over"
    assert back.result == {"scores": [1, 2, 3]}
    with pytest.raises(StaleSequenceError):  # nothing after the end
        store.append_move(g.id, 1, 0, 3)


def test_replay_of_the_stored_log_rebuilds_the_same_state(store: Store) -> None:
    """A whole bot game is stored move by move; replaying the log gives the same position."""
    game = games.get("seven-wonders")
    g = store.create_game(_setup(players=4, seed=23))
    store.set_status(g.id, "active")
    live = game.new_game(4, 23, {"sides": "A"})
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    seq = 0
    while not live.is_terminal():
        for seat in live.to_move():
            action = bots[seat].choose(live, seat)
            live.apply(seat, action)
            store.append_move(g.id, seq, seat, action)
            seq += 1
        if seq == 40:  # halfway: the stored prefix already replays exactly
            mid = game.replay(4, 23, store.moves(g.id), g.options)
            assert mid.state_hash() == live.state_hash()
    rebuilt = game.replay(g.players, g.seed, store.moves(g.id), store.get_game(g.id).options)
    assert rebuilt.state_hash() == live.state_hash()
    assert rebuilt.result().scores == live.result().scores


def test_list_games_by_status(store: Store) -> None:
    a = store.create_game(_setup(seed=1))
    b = store.create_game(_setup(seed=2))
    store.set_status(b.id, "active")
    assert {r.id for r in store.list_games()} == {a.id, b.id}
    assert [r.id for r in store.list_games("active")] == [b.id]
    assert store.game_ids("lobby") == [a.id]
    assert len(store.list_games()[0].seats) == 3
    with pytest.raises(StoreError):
        store.set_status(a.id, "paused")


def test_make_bot_fills_a_free_seat(store: Store) -> None:
    g = store.create_game(_setup())
    store.make_bot(g.id, 0, "heuristic")
    seat = store.get_game(g.id).seats[0]
    assert (seat.kind, seat.bot, seat.taken) == ("bot", "heuristic", True)
    with pytest.raises(SeatTakenError):
        store.make_bot(g.id, 0, "random")


def test_sqlite_runs_in_wal_mode(sqlite_url: str) -> None:
    store = Store.open(sqlite_url)
    with store.engine.connect() as conn:
        mode = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
        sync = conn.exec_driver_sql("PRAGMA synchronous").scalar()
    store.close()
    assert mode == "wal"
    assert sync == 2  # FULL


def test_default_database_lives_in_the_user_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("CIVTABLE_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    url = default_db_url()
    assert url == f"sqlite:///{tmp_path / 'data' / 'civtable' / 'civtable.db'}"
    store = Store.open()  # creates the directory and the schema there
    store.close()
    assert (tmp_path / "data" / "civtable" / "civtable.db").exists()
    monkeypatch.setenv("CIVTABLE_DB", "sqlite:///elsewhere.db")
    assert default_db_url() == "sqlite:///elsewhere.db"


def test_postgres_urls_use_psycopg3() -> None:
    assert normalize_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_since_gives_what_a_stale_copy_lacks(store: Store) -> None:
    """A server process whose copy has ``seq`` moves catches up from the log (issue 23)."""
    g = store.create_game(_setup())
    store.set_status(g.id, "active")
    store.append_moves(g.id, 0, [(0, 5), (1, 6)])
    store.append_move(g.id, 2, 2, 7)
    record, tail, held = store.since(g.id, 1)
    assert (record.seq, record.status) == (3, "active")
    assert tail == [(1, 6), (2, 7)]
    assert held == {}
    assert store.since(g.id, 3)[1] == []
    # a seat's steps in progress are shared until its move is stored (on PostgreSQL, where
    # several processes may share them; one SQLite process keeps them in memory)
    store.set_pending(g.id, 1, [4, 9])
    store.set_pending(g.id, 2, [3])
    assert store.since(g.id, 3)[2] == {1: [4, 9], 2: [3]}
    store.set_pending(g.id, 2, [])
    assert not store.drop_pending(g.id, 1, [4, 9], 2)  # not at that position any more
    assert not store.drop_pending(g.id, 1, [4], 3)  # not those steps
    store.set_pending(g.id, 2, [8])
    assert store.drop_pending(g.id, 2, [8], 3)
    assert store.since(g.id, 3)[2] == {1: [4, 9]}
    if store.dialect == "postgresql":
        store.append_moves(g.id, 3, [(1, 4), (1, 9)])  # the move forgets its steps
        assert store.since(g.id, 5)[2] == {}
    with pytest.raises(UnknownGameIdError):
        store.since("nope", 0)


def test_two_stores_on_one_database_never_both_commit_a_seq(db_url: str) -> None:
    """Two server processes (two stores, two pools) offering move 0 of one game: one commit
    wins, the other is refused whole (single or batched), and the log holds one move."""
    a, b = Store.open(db_url), Store.open(db_url)
    try:
        g = a.create_game(_setup())
        a.set_status(g.id, "active")
        a.append_move(g.id, 0, 0, 5)
        with pytest.raises(StaleSequenceError):
            b.append_move(g.id, 0, 1, 6)
        [error] = b.append_batch([Append(g.id, 0, ((1, 6), (1, 7)))])
        assert isinstance(error, StaleSequenceError)
        assert a.moves(g.id) == b.moves(g.id) == [(0, 5)]
    finally:
        a.close()
        b.close()


def test_postgresql_notifies_each_committed_change(pg_url: str) -> None:
    """Every committed change sends ``'<game id> <seq>'`` (and an append its moves) on the
    channel; a refused one none."""
    import psycopg

    store = Store.open(pg_url)
    listener = psycopg.connect(pg_url, autocommit=True)
    try:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        g = store.create_game(_setup())
        store.take_seat(g.id, 0, "Ann", "h" * 64)
        store.set_status(g.id, "active")
        store.append_moves(g.id, 0, [(0, 5), (1, 6)])
        with pytest.raises(StaleSequenceError):
            store.append_move(g.id, 0, 2, 7)
        store.append_batch([Append(g.id, 2, ((2, 7),))])
        got = [n.payload for n in listener.notifies(timeout=2, stop_after=4)]
        # an append's notice spells out its moves (a store with no origin sends "-")
        assert got == [f"{g.id} 0", f"{g.id} 0", f"{g.id} 2 - 0.5,1.6", f"{g.id} 3 - 2.7"]
        assert list(listener.notifies(timeout=0.3)) == []  # nothing for the refused move
    finally:
        listener.close()
        store.close()
