"""The ISMCTS bot (civtable.bots.ismcts): strength against random, determinism, explain(),
budgets, progressive widening, and the 7 Wonders specifics it meets through the core API
(simultaneous steps SW-8, payment decisions SW-7, the 2-player Free City SW-14)."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from civtable import games
from civtable.bots import UnknownBotError, make_bot
from civtable.bots.heuristic import heuristic_module
from civtable.bots.ismcts import IsmctsBot, parse_spec
from civtable.core.api import State
from civtable.games.seven_wonders.actions import PAY
from civtable.sim.tournament import TournamentConfig, run_tournament

SW = "seven-wonders"


def _state(players: int = 3, seed: int = 4) -> State:
    return games.get(SW).new_game(players, seed)


def _play_to(state: State, predicate: Callable[[State], bool], bot: str, seed: int) -> State:
    """Play ``bot`` moves (seat s seeded ``seed * 7 + s``) until ``predicate(state)`` holds."""
    bots = [make_bot(bot, seed * 7 + s) for s in range(state.players)]
    while not predicate(state):
        assert not state.is_terminal(), "the position was never reached"
        for seat in state.to_move():
            if state.legal_actions(seat) and not predicate(state):
                state.apply(seat, bots[seat].choose(state, seat))
    return state


# --- specs ------------------------------------------------------------------------------------
def test_spec_budgets_and_options() -> None:
    assert parse_spec("1s").seconds == 1.0
    assert parse_spec("200ms").seconds == pytest.approx(0.2)
    cfg = parse_spec("500i")
    assert (cfg.iterations, cfg.seconds) == (500, None)
    cfg = parse_spec("300i:k=end:policy=random:c=1.2:reward=margin:pw=off:eps=0.1")
    assert (cfg.cutoff, cfg.policy, cfg.exploration) == (None, "random", 1.2)
    assert (cfg.reward, cfg.widening, cfg.epsilon) == ("margin", False, 0.1)
    assert parse_spec("").seconds == 1.0  # plain "ismcts": one second
    assert (parse_spec("10i:pd=2").prior_depth, parse_spec("10i:top=4").top) == (2, 4)
    assert parse_spec("10i:policy=fast").policy == "fast"
    assert parse_spec("10i:keep=0.05").keep == 0.05
    default = parse_spec("10i")
    assert (default.keep, default.keep_z, default.race_z, default.top) == (0.0, 0.5, 2.0, 6)
    assert isinstance(make_bot("ismcts:50i", 1), IsmctsBot)


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:fast",
        "ismcts:0i",
        "ismcts:-1s",
        "ismcts:10i:k",
        "ismcts:10i:zz=1",
        "ismcts:10i:keep=2",
        "ismcts:10i:policy=smart",
        "ismcts:1s:clock=gpu",
    ],
)
def test_bad_specs_are_rejected(spec: str) -> None:
    with pytest.raises(UnknownBotError):
        make_bot(spec, 0)


# --- strength ---------------------------------------------------------------------------------
def test_sw_13_ismcts_beats_random_bots_three_players() -> None:
    """A few hundred iterations win clearly against two random bots; seats rotate over the fixed
    game seeds. No heuristic help but the evaluation of cut-off playouts: random playouts, no
    prior (so plain UCB at the root, widening in random order)."""
    spec = "ismcts:200i:policy=random:prior=none:k=1"
    config = TournamentConfig(SW, players=3, bots=(spec, "random", "random"), games=4, seed=21)
    summary = run_tournament(config)
    assert not summary.errors
    stats = {b.bot: b for b in summary.bot_stats()}
    search, rnd = stats[spec], stats["random"]
    assert search.seat_games == 4
    # chance is 1/3; four wins out of four happen by luck with probability 1/81
    assert search.wins >= 3.5
    assert search.score_sum / 4 > rnd.score_sum / rnd.seat_games + 10


# --- determinism, no side effects ---------------------------------------------------------------
def test_iteration_budget_is_deterministic_for_a_seed() -> None:
    state = _state(4, seed=9)
    first = make_bot("ismcts:25i", seed=5)
    second = make_bot("ismcts:25i", seed=5)
    assert isinstance(first, IsmctsBot)
    assert isinstance(second, IsmctsBot)
    for _ in range(2):  # two decisions in a row: the bots' generators advance identically
        assert first.choose(state, 0) == second.choose(state, 0)
        assert first.last.moves == second.last.moves
        assert first.last.iterations == 25


def test_a_whole_game_with_ismcts_replays_identically() -> None:
    config = TournamentConfig(SW, players=3, bots=("ismcts:15i:policy=random", "random"), games=1)
    a = run_tournament(config).results[0]
    b = run_tournament(config).results[0]
    assert a.completed
    assert a.outcome() == b.outcome()


def test_search_leaves_the_real_state_untouched_sw_3_9() -> None:
    state = _state(4, seed=2)
    state.apply(1, state.legal_actions(1)[0])  # a hidden commitment of another seat (SW-8.3)
    before, history = state.state_hash(), list(state.history)
    make_bot("ismcts:20i", 3).choose(state, 0)
    assert state.state_hash() == before
    assert state.history == history


def test_time_budget_stops_the_search() -> None:
    bot = make_bot("ismcts:50ms:policy=random", 1)
    assert isinstance(bot, IsmctsBot)
    state = _state(4)
    bot.choose(state, 2)
    assert bot.last.iterations >= 1
    assert bot.last.seconds < 1.0  # 50 ms plus at most one iteration, even on a busy machine


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_clock_option_picks_the_time_budgets_clock(
    clock: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``clock=cpu`` counts the budget on ``time.process_time``, the default on wall time: a fake
    CPU clock that gains 0.3 s per reading stops the ``clock=cpu`` search after four
    iterations and is not read by the wall-clock one."""
    import civtable.bots.ismcts as ismcts_module

    readings = iter(x * 0.3 for x in range(1_000_000))
    monkeypatch.setattr(ismcts_module.time, "process_time", lambda: next(readings))
    spec = "ismcts:1s:policy=random:paired=off" + ("" if clock == "wall" else ":clock=cpu")
    bot = make_bot(spec, 1)
    assert isinstance(bot, IsmctsBot)
    assert bot.config.clock == clock
    assert ("CPU time" in bot.config.describe()) == (clock == "cpu")
    bot.choose(_state(4), 2)
    if clock == "cpu":
        # readings 0 (start), 0.3, 0.6, 0.9 (go on), 1.2 (stop), 1.5 (elapsed)
        assert bot.last.iterations == 4
        assert bot.last.seconds == pytest.approx(1.5)
    else:
        assert bot.last.iterations > 5  # a real second of random playouts


# --- explain ----------------------------------------------------------------------------------
@pytest.mark.parametrize("paired", ["on", "off"])
def test_explain_lists_top_moves_with_visits_and_win_rates(paired: str) -> None:
    state = _state(3, seed=7)
    spec = f"ismcts:40i:paired={paired}:top=5:keep=0:kz=0:race=off"
    bot = make_bot(spec, 11)
    assert isinstance(bot, IsmctsBot)
    moves = bot.explain(state, 1, top=4)
    legal = state.legal_actions(1)
    assert 1 <= len(moves) <= 4
    assert sum(m.visits for m in moves) <= 40
    for m in moves:
        assert m.action in legal
        assert m.label == state.describe(1, m.action)
        assert 0.0 <= m.win_rate <= 1.0
        assert set(m.to_json()) == {"action", "label", "visits", "win_rate"}
    if paired == "on":  # every root move sampled on the same deals: ordered by value
        assert {m.visits for m in moves} == {8}  # 40 iterations over the top 5 moves
        assert [m.win_rate for m in moves] == sorted((m.win_rate for m in moves), reverse=True)
    else:  # UCB: ordered by visits
        assert [m.visits for m in moves] == sorted((m.visits for m in moves), reverse=True)
    # the first explained move is the move an identically seeded bot plays
    assert make_bot(spec, 11).choose(state, 1) == moves[0].action


def test_paired_root_samples_the_prior_best_moves_on_common_deals() -> None:
    state = _state(4, seed=12)
    bot = make_bot("ismcts:18i:top=3", 2)
    assert isinstance(bot, IsmctsBot)
    moves = bot.explain(state, 0, top=10)
    values = heuristic_module(SW).action_values(state, 0)
    best3 = sorted(state.legal_actions(0), key=lambda a: -values[a])[:3]
    assert {m.action for m in moves} == set(best3)
    assert [m.visits for m in moves] == [6, 6, 6]


def test_keep_plays_the_prior_best_move_unless_clearly_beaten() -> None:
    """With ``keep`` the ranking's favourite stays first unless another root move's mean reward
    beats it by more than ``keep``; ``keep=1`` therefore always plays the heuristic's choice."""
    state = _state(4, seed=12)
    values = heuristic_module(SW).action_values(state, 0)
    favourite = max(state.legal_actions(0), key=lambda a: values[a])
    for seed in range(3):
        bot = make_bot("ismcts:18i:keep=1", seed)
        assert isinstance(bot, IsmctsBot)
        assert bot.choose(state, 0) == favourite
        assert bot.last.moves[0].action == favourite
    # keep=0: the best mean is played; a small keep moves the favourite first only when close
    for seed in range(4):
        plain = make_bot("ismcts:18i:keep=0:kz=0", seed)
        sticky = make_bot("ismcts:18i:keep=0.02:kz=0", seed)
        assert isinstance(plain, IsmctsBot)
        assert isinstance(sticky, IsmctsBot)
        moves = plain.explain(state, 0, top=10)
        by_action = {m.action: m.win_rate for m in moves}
        expected = moves[0].action
        if moves[0].win_rate - by_action[favourite] <= 0.02:
            expected = favourite
        assert sticky.choose(state, 0) == expected
        assert [m.win_rate for m in moves] == sorted(by_action.values(), reverse=True)


def test_auto_policy_models_the_other_seats_with_the_heuristic_player() -> None:
    """``policy=auto`` plays out with the heuristic module's ``choose`` (the other seats' model:
    the heuristic bots themselves), ``policy=fast`` with its cheaper ``playout_policy`` hook,
    ``policy=random`` uniformly."""
    module = heuristic_module(SW)
    for spec, expected in (
        ("ismcts:5i", module.choose),
        ("ismcts:5i:policy=fast", module.playout_policy),
        ("ismcts:5i:policy=heuristic", module.choose),
    ):
        bot = make_bot(spec, 0)
        assert isinstance(bot, IsmctsBot)
        bot._bind(SW)
        assert bot._policy is expected
    rnd = make_bot("ismcts:5i:policy=random", 0)
    assert isinstance(rnd, IsmctsBot)
    rnd._bind(SW)
    assert rnd._policy not in (module.playout_policy, module.choose)


def test_default_spec_is_deterministic_with_explain_for_a_seed() -> None:
    """The default search (heuristic playouts, paired root over the top 6, racing) with an
    iteration budget gives the same explanation and move for the same seed, and explain() lists
    the root moves."""
    state = _state(4, seed=3)
    runs = []
    for _ in range(2):
        bot = make_bot("ismcts:24i", seed=9)
        assert isinstance(bot, IsmctsBot)
        moves = bot.explain(state, 2, top=10)
        runs.append([m.to_json() for m in moves])
        assert [m.visits for m in moves] == [4] * 6  # 4 deals: too few to race (racemin 8)
        assert bot.last.iterations == 24
        assert make_bot("ismcts:24i", seed=9).choose(state, 2) == moves[0].action
    assert runs[0] == runs[1]


def test_forced_move_is_played_without_search_and_explained() -> None:
    # one-action decisions are rare in 7 Wonders; this game reaches one (Babylon's extra step,
    # SW-10.7)
    state = _state(3, seed=8)
    _play_to(
        state, lambda s: any(len(s.legal_actions(p)) == 1 for p in s.to_move()), "heuristic", 8
    )
    seat = next(p for p in state.to_move() if len(state.legal_actions(p)) == 1)
    bot = make_bot("ismcts:10i", 0)
    assert isinstance(bot, IsmctsBot)
    assert bot.choose(state, seat) == state.legal_actions(seat)[0]
    moves = bot.explain(state, seat)
    assert [m.action for m in moves] == state.legal_actions(seat)
    assert moves[0].visits == 10


# --- tree policy ------------------------------------------------------------------------------
def test_progressive_widening_expands_the_prior_best_moves_first() -> None:
    state = _state(4, seed=12)
    legal = state.legal_actions(0)
    assert len(legal) > 6
    iterations = 25
    bot = make_bot(f"ismcts:{iterations}i:paired=off:pwc=1:pwa=0.5:pwmin=2:k=1", 4)
    assert isinstance(bot, IsmctsBot)
    moves = bot.explain(state, 0, top=100)
    bound = math.ceil(1.0 * iterations**0.5)  # k(n) = ceil(pwc * n ** pwa), n <= iterations
    assert len(moves) <= bound < len(legal)
    values = heuristic_module(SW).action_values(state, 0)
    best = sorted(legal, key=lambda a: -values[a])[:bound]
    assert {m.action for m in moves} <= set(best)
    # without widening every legal move gets tried
    wide = make_bot(f"ismcts:{iterations}i:paired=off:pw=off:k=1", 4)
    assert isinstance(wide, IsmctsBot)
    assert len(wide.explain(state, 0, top=100)) == min(len(legal), iterations)


def test_sw_7_payment_decision_is_searched() -> None:
    """After a build with several payment plans (SW-7) the same seat owes a PAY decision;
    the bot searches it like any other decision and picks one of the plans."""
    state = _state(3, seed=3)

    def paying(s: State) -> bool:
        return any(
            len(s.legal_actions(p)) > 1 and s.legal_actions(p)[0] >= PAY for p in s.to_move()
        )

    _play_to(state, paying, "heuristic", 3)
    seat = next(p for p in state.to_move() if state.legal_actions(p)[0] >= PAY)
    bot = make_bot("ismcts:30i", 2)
    assert isinstance(bot, IsmctsBot)
    action = bot.choose(state, seat)
    assert action in state.legal_actions(seat)
    assert action >= PAY
    assert sum(m.visits for m in bot.last.moves) == 30


@pytest.mark.parametrize(
    "spec", ["ismcts:20i:reward=win:k=1", "ismcts:20i:k=0:paired=off", "ismcts:8i:policy=random"]
)
def test_reward_variants_cutoffs_and_random_playouts(spec: str) -> None:
    state = _state(3, seed=6)
    bot = make_bot(spec, 1)
    assert isinstance(bot, IsmctsBot)
    moves = bot.explain(state, 0, top=50)
    assert all(0.0 <= m.win_rate <= 1.0 for m in moves)
    assert bot.last.iterations == int(spec.split(":")[1][:-1])


def test_sw_14_two_player_game_with_free_city_decisions() -> None:
    """In the 2-player variant the controller also decides for the Free City (SW-14.4); the
    bot's own decisions then form a sequence inside one step, which the tree follows."""
    config = TournamentConfig(SW, players=2, bots=("ismcts:12i:policy=random", "random"), games=2)
    summary = run_tournament(config)
    assert not summary.errors
    assert all(r.completed and len(r.scores) == 2 for r in summary.results)


def test_sw_8_others_decide_once_per_deal_and_the_step_stays_open() -> None:
    """Paired search lets the other seats make their simultaneous choice (SW-8) once per deal;
    the step must not resolve before the searching seat has chosen."""
    from civtable.core.rng import Rng

    state = _state(4, seed=5)
    bot = make_bot("ismcts:10i", 1)
    assert isinstance(bot, IsmctsBot)
    bot._bind(SW)
    d = state.determinize(0, Rng(3))
    bot._others_decide(d, 0, Rng(4))
    assert d.to_move() == (0,)
    assert (d.age, d.turn) == (state.age, state.turn)
    assert d.legal_actions(0) == state.legal_actions(0)
    assert all(d.commits[c] is not None for c in (1, 2, 3))  # type: ignore[attr-defined]


def test_k_auto_takes_the_games_cutoff() -> None:
    """``k=auto`` (the default) uses the game's ``ISMCTS_CUTOFF`` (Through the Ages: its full
    games are too long to play out), else plays to the end (7 Wonders)."""
    from civtable import games
    from civtable.bots.ismcts import AUTO_CUTOFF, IsmctsBot
    from civtable.games.through_the_ages import heuristic as tta

    assert parse_spec("300i").cutoff == AUTO_CUTOFF
    assert parse_spec("300i:k=auto").cutoff == AUTO_CUTOFF
    tta_bot = IsmctsBot(parse_spec("5i"), seed=1)
    state = games.get("through-the-ages").new_game(2, 1)
    tta_bot.choose(state, state.to_move()[0])
    assert tta_bot._cutoff == tta.ISMCTS_CUTOFF
    sw_bot = IsmctsBot(parse_spec("5i"), seed=1)
    state = games.get("seven-wonders").new_game(3, 1)
    sw_bot.choose(state, state.to_move()[0])
    assert sw_bot._cutoff is None
    explicit = IsmctsBot(parse_spec("5i:k=3"), seed=1)
    explicit.choose(state, state.to_move()[0])
    assert explicit._cutoff == 3


def test_game_settings_fill_in_what_the_spec_did_not_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's ``ISMCTS_SETTINGS`` (heuristic module) are its search defaults; a spec's own
    options win over them, and binding to another game drops them."""
    from civtable import games
    from civtable.bots.ismcts import IsmctsBot
    from civtable.games.seven_wonders import heuristic as sw

    monkeypatch.setattr(sw, "ISMCTS_SETTINGS", "top=2:c=1.3:k=4", raising=False)
    state = games.get("seven-wonders").new_game(3, 1)
    bot = IsmctsBot(parse_spec("6i:top=3"), seed=1)
    bot.choose(state, state.to_move()[0])
    assert (bot.cfg.top, bot.cfg.exploration, bot._cutoff) == (3, 1.3, 4)
    assert (bot.config.top, bot.config.exploration) == (3, parse_spec("6i").exploration)
    deus = games.get("deus").new_game(2, 1)
    bot.choose(deus, deus.to_move()[0])
    assert bot.cfg.exploration == bot.config.exploration
    monkeypatch.setattr(sw, "ISMCTS_SETTINGS", "top=2:nonsense=1", raising=False)
    with pytest.raises(UnknownBotError, match="nonsense"):
        IsmctsBot(parse_spec("6i"), seed=1).choose(state, state.to_move()[0])


def test_game_settings_by_player_count_and_named_evaluations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``ISMCTS_PLAYER_SETTINGS`` apply over ``ISMCTS_SETTINGS`` in games of their player count
    only, a spec's own options winning; ``eval=NAME`` takes the game's ``ISMCTS_EVALUATIONS``
    entry, and a name the game does not have is a clear error."""
    from civtable import games
    from civtable.games.seven_wonders import heuristic as sw

    def half(state: State, seat: int) -> float:
        return 0.5

    monkeypatch.setattr(sw, "ISMCTS_SETTINGS", "top=2:c=1.3", raising=False)
    monkeypatch.setattr(sw, "ISMCTS_PLAYER_SETTINGS", {4: "top=4:eval=half"}, raising=False)
    monkeypatch.setattr(sw, "ISMCTS_EVALUATIONS", {"half": half}, raising=False)
    bots = {}
    for players in (3, 4):
        state = games.get("seven-wonders").new_game(players, 1)
        bot = bots[players] = IsmctsBot(parse_spec("4i"), seed=1)
        bot.choose(state, state.to_move()[0])
    assert (bots[3].cfg.top, bots[3].cfg.exploration, bots[3].cfg.evaluation) == (2, 1.3, "auto")
    assert bots[3]._evaluation is sw.evaluate
    assert (bots[4].cfg.top, bots[4].cfg.exploration, bots[4]._evaluation) == (4, 1.3, half)
    # the same bot in a game of another size takes that size's settings
    state = games.get("seven-wonders").new_game(3, 2)
    bots[4].choose(state, state.to_move()[0])
    assert (bots[4].cfg.top, bots[4]._evaluation) == (2, sw.evaluate)
    own = IsmctsBot(parse_spec("4i:top=3:eval=auto"), seed=1)
    four = games.get("seven-wonders").new_game(4, 1)
    own.choose(four, four.to_move()[0])
    assert (own.cfg.top, own._evaluation) == (3, sw.evaluate)
    with pytest.raises(UnknownBotError, match="no such evaluation"):
        IsmctsBot(parse_spec("4i:eval=nothing"), seed=1).choose(four, four.to_move()[0])
    # made for a game, the bot checks the name at once, listing the names it knows
    with pytest.raises(UnknownBotError, match=r"\(use auto, none, half\)"):
        make_bot("ismcts:4i:eval=nothing", 1, game="seven-wonders", players=4)
    made = make_bot("ismcts:4i:eval=half", 1, game="seven-wonders", players=4)
    assert isinstance(made, IsmctsBot)
    assert made._evaluation is half
    with pytest.raises(UnknownBotError, match="eval="):
        parse_spec("4i:eval=a-b")


# --- paired statistics, racing, tree depth, rank reward -----------------------------------------
def test_spec_racing_keep_z_depth_and_rank_options() -> None:
    cfg = parse_spec("100i:race=2.5:racemin=4:kz=0.5:d=1:reward=rank")
    assert (cfg.race_z, cfg.race_min, cfg.keep_z) == (2.5, 4, 0.5)
    assert (cfg.tree_depth, cfg.reward) == (1, "rank")
    assert parse_spec("100i:race=off").race_z is None
    assert parse_spec("100i:d=end").tree_depth is None
    for bad in ("ismcts:10i:race=-1", "ismcts:10i:d=0", "ismcts:10i:kz=x", "ismcts:10i:racemin=1"):
        with pytest.raises(UnknownBotError):
            make_bot(bad, 0)


def test_race_pairs_rewards_by_deal_and_drops_clearly_worse_moves() -> None:
    from civtable.bots.ismcts import _Race

    race = _Race([1, 2, 3])
    # move 2 is 0.1 below move 1 on every deal give or take 0.01; move 3 is level with move 1
    for i in range(10):
        noise = 0.01 if i % 2 else -0.01
        base = 0.2 + 0.05 * (i % 3)  # the deal itself moves every reward alike
        race.add({1: base, 2: base - 0.1 + noise, 3: base + noise})
    mean, se = race.difference(2, 1)
    assert mean == pytest.approx(-0.1)
    assert 0.0 < se < 0.01
    assert race.difference(1, 2)[0] == pytest.approx(0.1)
    assert race.difference(3, 1)[0] == pytest.approx(0.0)
    race.eliminate(3.0)
    assert race.active == [1, 3]  # 2 is 30 SEs below; 3 within noise of 1
    race.add({1: 0.5, 3: 0.5})  # only the active moves are compared from now on
    assert race.pairs[(1, 2)][0] == 10
    assert race.pairs[(1, 3)][0] == 11


def test_racing_search_stops_when_one_move_is_left() -> None:
    """``race=0`` drops every root move below the best mean after ``racemin`` deals; the search
    then stops early and plays the survivor, identically for the same seed."""
    state = _state(4, seed=12)
    runs = []
    for _ in range(2):
        bot = make_bot("ismcts:60i:top=4:race=0:racemin=3:d=1", 5)
        assert isinstance(bot, IsmctsBot)
        action = bot.choose(state, 0)
        runs.append((action, bot.last.iterations, [m.to_json() for m in bot.last.moves]))
        assert bot.last.iterations < 60
        assert bot.last.moves[0].action == action
        assert bot.last.moves[0].visits == max(m.visits for m in bot.last.moves)
    assert runs[0] == runs[1]
    # without racing the whole budget is spent
    plain = make_bot("ismcts:60i:top=4:d=1:race=off", 5)
    assert isinstance(plain, IsmctsBot)
    plain.choose(state, 0)
    assert plain.last.iterations == 60


def test_keep_z_large_always_keeps_the_favourite() -> None:
    state = _state(4, seed=12)
    values = heuristic_module(SW).action_values(state, 0)
    favourite = max(state.legal_actions(0), key=lambda a: values[a])
    for seed in range(3):
        bot = make_bot("ismcts:30i:keep=0:kz=50:top=3:race=off", seed)
        assert bot.choose(state, 0) == favourite


def test_tree_depth_limits_the_searching_seats_tree() -> None:
    """``d=1`` keeps only the root's children in the tree: the searching seat's later decisions
    are made by the playout policy; without a limit deeper nodes grow."""
    state = _state(3, seed=4)
    deep = IsmctsBot(parse_spec("120i:paired=off:policy=random:k=2"), 1)
    root = deep._search(state, 0)
    assert any(child.children for child in root.children.values())
    flat = IsmctsBot(parse_spec("120i:paired=off:policy=random:k=2:d=1"), 1)
    root = flat._search(state, 0)
    assert root.children
    assert not any(child.children for child in root.children.values())


def test_rank_reward_is_the_smoothed_share_of_seats_beaten() -> None:
    state = _state(3, seed=2)
    _play_to(state, lambda s: s.is_terminal(), "random", 2)
    scores = state.result().scores
    bot = IsmctsBot(parse_spec("5i:reward=rank"), 0)
    expected = sum(1 / (1 + math.exp(-(scores[0] - x) / 5)) for x in scores[1:]) / 2
    assert bot._reward(state, 0) == pytest.approx(expected)
    margin = IsmctsBot(parse_spec("5i:reward=margin"), 0)
    assert margin._reward(state, 0) == pytest.approx(
        1 / (1 + math.exp(-(scores[0] - max(scores[1:])) / 5))
    )


def test_tta_6_8_resigning_is_a_loss_to_the_search_whatever_the_score() -> None:
    """Issue 22: ISMCTS resigned while ahead (the margin reward scored the resigned seat by its
    points). A concession now ends the iteration with reward 0, so resignation never leads."""
    from civtable.games.through_the_ages.actions import RESIGN

    game = games.get("through-the-ages")
    rng_bot = make_bot("random", seed=3)
    state = game.new_game(2, seed=11)
    seen = 0
    while not state.is_terminal() and seen < 3:
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        if RESIGN in legal and len(legal) > 1:
            bot = IsmctsBot(parse_spec("150i:paired=off:pw=off"), seed=seen)
            stats = bot.explain(state, seat, top=len(legal))
            by_action = {m.action: m for m in stats}
            if RESIGN in by_action and by_action[RESIGN].visits:
                assert by_action[RESIGN].win_rate == 0.0
                assert stats[0].action != RESIGN
                seen += 1
        legal_no_resign = [a for a in legal if a != RESIGN] or legal
        state.apply(seat, rng_bot.rng.choice(legal_no_resign))
    assert seen, "no position offered a resignation"


@pytest.mark.parametrize("k", [0, 1])
def test_tta_4_cutoff_counts_the_games_search_clock(k: int) -> None:
    """Through the Ages' heuristic module defines ``search_clock`` (turns the seat has begun):
    with it a cut-off of ``k`` evaluates every playout at the start of the searching seat's
    ``k + 1``-th turn from now (or at the game's end), whatever number of actions the root move
    took; ``kclock=rounds`` counts to_move snapshots instead."""
    from civtable.games.through_the_ages import heuristic as tta

    state = games.get("through-the-ages").new_game(2, seed=9)
    state = _play_to(state, lambda s: s.round >= 4 and s.to_move()[0] == s.current, "heuristic", 1)
    seat = state.to_move()[0]
    now = tta.search_clock(state, seat)
    seen: list[tuple[int, int]] = []

    def spy(d: State, s: int) -> float:
        seen.append((tta.search_clock(d, s), d.current))  # type: ignore[attr-defined]
        return 0.5

    bot = IsmctsBot(parse_spec(f"30i:k={k}"), seed=2)
    bot._bind(state.game.id, state.players)
    assert bot._search_clock is tta.search_clock
    bot._evaluation = spy
    bot.choose(state, seat)
    assert seen
    assert all(clock == now + k + 1 and current == seat for clock, current in seen)
    seen.clear()
    rounds = IsmctsBot(parse_spec(f"30i:k={k}:kclock=rounds"), seed=2)
    rounds._bind(state.game.id, state.players)
    assert rounds._search_clock is None
    rounds._evaluation = spy
    rounds.choose(state, seat)
    assert any(clock != now + k + 1 for clock, _ in seen)  # snapshots: often mid-turn
    assert parse_spec("5i:kclock=rounds").cut_clock == "rounds"
    with pytest.raises(UnknownBotError, match="kclock"):
        make_bot("ismcts:5i:kclock=turns", 0)


# --- decisions a game leaves to its heuristic (search_worthy) ----------------------------------
def _deus_position(main: bool) -> State:
    """A two-player Deus position of a heuristic game with a choice to make, in the main phase
    (``main``) or in a follow-up decision."""
    from civtable.games.deus.state import MAIN

    def wanted(s: State) -> bool:
        assert hasattr(s, "phase")
        seat = s.to_move()[0]
        return len(s.legal_actions(seat)) > 1 and (s.phase == MAIN) == main

    return _play_to(games.get("deus").new_game(2, 3), wanted, "heuristic", seed=3)


def test_declined_decisions_are_played_by_the_heuristic_without_a_search() -> None:
    """With ``sd=auto`` (the default) a decision the game's ``search_worthy`` declines is the
    policy's (here the heuristic's ``choose``) on a determinization and runs no search;
    ``explain`` still searches it, ``sd=all`` searches it, and a decision the game accepts is
    searched."""
    deus = heuristic_module("deus")
    follow_up = _deus_position(main=False)
    seat = follow_up.to_move()[0]
    assert not deus.search_worthy(follow_up, seat)
    bot = IsmctsBot(parse_spec("12i"), seed=5)
    rng = bot.rng.copy().fork()
    expected = deus.choose(follow_up.determinize(seat, rng), seat, rng)
    assert bot.choose(follow_up, seat) == expected
    assert bot.last.iterations == 0
    assert bot.explain(follow_up, seat)
    assert bot.last.iterations == 12
    searched = IsmctsBot(parse_spec("12i:sd=all"), seed=5)
    searched.choose(follow_up, seat)
    assert searched.last.iterations == 12
    main = _deus_position(main=True)
    assert deus.search_worthy(main, main.to_move()[0])
    bot.choose(main, main.to_move()[0])
    assert bot.last.iterations == 12


def test_cutoff_by_turn_stops_playouts_where_a_turn_begins() -> None:
    """``kunit=turn``: a cut-off playout is scored where the seat to move changes (a Deus turn's
    follow-up decisions belong to it), never in the middle of a turn; the default counts every
    decision of a single mover."""
    from civtable.games.deus.state import MAIN

    seen: dict[str, list[tuple[int, int]]] = {"decision": [], "turn": []}
    for unit, where in seen.items():
        bot = IsmctsBot(parse_spec(f"12i:k=1:kunit={unit}:sd=all"), seed=4)

        def evaluate(s: State, seat: int, _where: list[tuple[int, int]] = where) -> float:
            assert hasattr(s, "phase")
            _where.append((s.phase, s.to_move()[0]))
            return 0.5

        state = _deus_position(main=True)
        seat = state.to_move()[0]
        bot._bind(state.game.id, state.players)
        bot._evaluation = evaluate
        bot.choose(state, seat)
        assert bot.cfg.cutoff_unit == unit
    # kunit=turn, k=1: the other seat's turn, then scored as the searching seat's turn begins
    assert seen["turn"]
    assert all(phase == MAIN and mover == seat for phase, mover in seen["turn"])
    assert any(phase != MAIN for phase, _ in seen["decision"])
    with pytest.raises(UnknownBotError, match="kunit"):
        parse_spec("5i:kunit=round")
