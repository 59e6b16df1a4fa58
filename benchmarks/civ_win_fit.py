"""Fit the win-chance weights of Civilization's ``evaluate`` on heuristic games (issue 22; not
part of the tests).

Plays ``--games`` heuristic games at ``--players`` seats (seeds ``--seed``, ``--seed + 1``, ...,
bots seeded as ``civtable simulate`` seeds them), takes every ``--every``-th decision's position,
computes :func:`heuristic.win_features` for every seat and labels the position with the game's
rewards (a shared victory split). The model is the one ``evaluate`` uses: each seat's win chance
is the softmax over the seats of the weights times its features (a conditional logit), fitted by
maximum likelihood (Newton's method, a small ridge ``--ridge``). Prints the held-out log-loss
(``--folds``-fold, split by game) of the weights in the code (:data:`heuristic.WIN_WEIGHTS`) and
of weights fitted on the other folds, then the weights fitted on all the games::

    python benchmarks/civ_win_fit.py --players 2 --games 200 --seed 1000

Games that end without a winner (the turn cap) are left out.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from civtable import games
from civtable.bots import make_bot
from civtable.games.civilization_a_new_dawn import heuristic
from civtable.sim.simulate import bot_seed

MAX_DECISIONS = 20_000


def play(players: int, seed: int, every: int) -> tuple[list[np.ndarray], np.ndarray] | None:
    """The features (seats x features) of every ``every``-th position of one heuristic game,
    and its rewards; None when it ends without a winner."""
    game = games.get("civilization-a-new-dawn")
    state = game.new_game(players, seed)
    bots = [make_bot("heuristic", bot_seed(seed, s)) for s in range(players)]
    rows: list[np.ndarray] = []
    for n in range(MAX_DECISIONS):
        if state.is_terminal():
            break
        if n % every == 0:
            rows.append(
                np.array([heuristic.win_features(state, s) for s in range(players)], dtype=float)
            )
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    if not state.is_terminal():
        return None
    rewards = np.array(state.result().rewards(), dtype=float)
    if rewards.sum() <= 0.0:
        return None
    return rows, rewards / rewards.sum()


def log_loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy of the softmax model ``w`` (x: positions x seats x features)."""
    z = x @ w
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-(y * logp).sum(axis=1).mean())


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Maximum-likelihood weights of the conditional logit (Newton's method)."""
    k = x.shape[2]
    w = np.zeros(k)
    for _ in range(50):
        z = x @ w
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("ps,psk->pk", p, x)
        grad = np.einsum("ps,psk->k", y - p, x) - ridge * len(x) * w
        centred = x - mean[:, None, :]
        hess = np.einsum("ps,psk,psl->kl", p, centred, centred) + ridge * len(x) * np.eye(k)
        step = np.linalg.solve(hess, grad)
        w = w + step
        if float(np.abs(step).max()) < 1e-9:
            break
    return w


def main() -> None:
    """Play, fit and print."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--ridge", type=float, default=1e-4)
    args = parser.parse_args()
    start = time.process_time()
    data: list[tuple[np.ndarray, np.ndarray]] = []
    skipped = 0
    for seed in range(args.seed, args.seed + args.games):
        got = play(args.players, seed, args.every)
        if got is None:
            skipped += 1
            continue
        rows, rewards = got
        data.append((np.stack(rows), np.tile(rewards, (len(rows), 1))))
    cpu = time.process_time() - start
    positions = sum(len(x) for x, _ in data)
    print(
        f"{len(data)} {args.players}-player heuristic games ({skipped} without a winner left out),"
        f" {positions} positions, {cpu:.0f} CPU-s"
    )
    code = np.array(heuristic.WIN_WEIGHTS)
    held_code, held_fit = [], []
    for f in range(args.folds):
        test = [d for i, d in enumerate(data) if i % args.folds == f]
        train = [d for i, d in enumerate(data) if i % args.folds != f]
        xt, yt = np.concatenate([x for x, _ in test]), np.concatenate([y for _, y in test])
        xr, yr = np.concatenate([x for x, _ in train]), np.concatenate([y for _, y in train])
        w = fit(xr, yr, args.ridge)
        held_code.append(log_loss(code, xt, yt) * len(xt))
        held_fit.append(log_loss(w, xt, yt) * len(xt))
    chance = math.log(args.players)
    print(
        f"held-out log-loss ({args.folds} folds by game): WIN_WEIGHTS of the code "
        f"{sum(held_code) / positions:.4f}, refitted {sum(held_fit) / positions:.4f}, "
        f"chance {chance:.4f}"
    )
    x_all = np.concatenate([x for x, _ in data])
    y_all = np.concatenate([y for _, y in data])
    w = fit(x_all, y_all, args.ridge)
    print("weights fitted on all: (" + ", ".join(f"{v:.3f}" for v in w) + ")")
    print(
        f"in-sample log-loss: code {log_loss(code, x_all, y_all):.4f}, fitted "
        f"{log_loss(w, x_all, y_all):.4f}"
    )


if __name__ == "__main__":
    main()
