"""A value model fitted on a run's decision logs: what a decision row's situation is worth.

``fit_value(run_dir)`` predicts the row's final hand result for the deciding team, **our hand
score minus the best opposing hand score** (``score_us - score_them``), from the row's features
(the basic decision columns, and with ``--log-detail cards`` the cards behind the decision).
Rows of one hand share its result, so the held-out split is done **by hand**: a hand's rows
are all in the training set or all in the test set, and the held-out R² and its 95% interval
(a bootstrap over test hands) are computed on hands, never on rows as if independent.

Models (scikit-learn):

- ``"gbt"`` (default): histogram gradient-boosted trees (``HistGradientBoostingRegressor``,
  100 rounds of 15-leaf trees, at least 200 rows a leaf, L2 1.0; squared error);
- ``"ridge"``: a ridge regression (``RidgeCV`` over alphas 0.1..1000) on standardized numbers
  and one-hot card kinds / decision types.

The fitted model is saved with the run, ``run_dir/models/value.joblib``, beside a JSON card
``run_dir/models/value.json`` (features, target, model, R² with its interval, row and hand
counts, the run it came from) and comes back with ``load_value(run_dir)``::

    from reports.values import fit_value, load_value
    card = fit_value("runs/cards").card          # fits, saves, returns the ValueModel
    vm = load_value("runs/cards")
    vm.predict(decisions_frame)                  # expected score_us - score_them per row
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.runs import store

MODEL_FILE = "value.joblib"
CARD_FILE = "value.json"
MODELS_DIR = "models"
TARGET = "score_us - score_them"
MODELS = ("gbt", "ridge")

# basic-detail features (every decision log has them); keys and the outcome are never features
BASIC_FEATURES = (
    "turn",
    "decision_type",
    "n_legal",
    "hand_size",
    "pile_size",
    "pile_frozen",
    "team_opened",
    "opp_opened",
    "canastas_us",
    "canastas_them",
    "next_opp_hand_size",
    "min_opp_hand_size",
    "stock_size",
    "cum_us",
    "cum_them",
    "pending_value",
)
# columns holding a category (a card kind, a decision type, a meld slot), one-hot for ridge
CATEGORICAL = ("decision_type", "pile_top", "drawn_1", "drawn_2", "act_kind", "act_target")
NOT_FEATURES = {
    "seed",
    "game",
    "hand",
    "seat",
    "team",
    "action",
    "score_us",
    "score_them",
    "went_out_us",
    "strategy",
}


class ValueModelError(ValueError):
    """A value model that cannot be fitted or loaded as asked (one-line message)."""


@dataclass
class ValueModel:
    """A fitted value model: ``predict(frame)`` gives the expected score_us - score_them of each
    decision row (the frame needs the ``card["features"]`` columns); ``card`` describes it."""

    model: Any
    card: dict[str, Any]

    @property
    def features(self) -> list[str]:
        return list(self.card["features"])

    def predict(self, frame: pd.DataFrame) -> np.ndarray:
        missing = [c for c in self.features if c not in frame.columns]
        if missing:
            raise ValueModelError(f"the frame lacks the model's feature column '{missing[0]}'")
        return np.asarray(
            self.model.predict(frame[self.features].to_numpy(np.float64)), dtype=np.float64
        )


def default_features(columns: list[str]) -> list[str]:
    """The features a run's decision table offers: the basic ones, then every card column."""
    basic = [c for c in BASIC_FEATURES if c in columns]
    cards = [c for c in columns if c not in NOT_FEATURES and c not in BASIC_FEATURES]
    return basic + cards


def hand_ids(frame: pd.DataFrame) -> np.ndarray:
    """One integer per hand key (seed, game, hand) of the rows: the unit of the split."""
    keys = frame[["seed", "game", "hand"]].to_numpy(np.int64)
    _, inverse = np.unique(keys, axis=0, return_inverse=True)
    return inverse.ravel()


def split_by_hand(
    groups: np.ndarray, test_fraction: float, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Boolean train / test row masks: a random `test_fraction` of the hands (all their rows)
    are held out, the rest train."""
    n_groups = int(groups.max()) + 1 if len(groups) else 0
    rng = np.random.default_rng(seed)
    held = rng.random(n_groups) < test_fraction
    test = held[groups]
    return ~test, test


def r2_by_hand_ci(
    y: np.ndarray,
    pred: np.ndarray,
    groups: np.ndarray,
    level: float = 0.95,
    n_boot: int = 1000,
    seed: int = 0,
) -> tuple[float, float, float]:
    """R² of `pred` for `y` and a percentile bootstrap interval that resamples hands (groups),
    not rows: a hand's rows share its result.  Returns (r2, low, high)."""
    _, g = np.unique(groups, return_inverse=True)
    k = int(g.max()) + 1
    n_h = np.bincount(g, minlength=k).astype(np.float64)
    sy = np.bincount(g, y, minlength=k)
    syy = np.bincount(g, y * y, minlength=k)
    sse = np.bincount(g, (y - pred) ** 2, minlength=k)

    def r2(w: np.ndarray) -> np.ndarray:
        n = w @ n_h
        sst = w @ syy - (w @ sy) ** 2 / n
        return 1.0 - (w @ sse) / sst

    point = float(r2(np.ones(k)))
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(k, np.full(k, 1.0 / k), size=n_boot).astype(np.float64)
    boot = r2(weights)
    alpha = (1.0 - level) / 2
    return point, float(np.quantile(boot, alpha)), float(np.quantile(boot, 1 - alpha))


def _estimator(kind: str, features: list[str], seed: int) -> Any:
    if kind == "gbt":
        from sklearn.ensemble import HistGradientBoostingRegressor

        # no early stopping: its validation split would cut through hands
        return HistGradientBoostingRegressor(
            max_iter=100,
            learning_rate=0.1,
            max_leaf_nodes=15,
            min_samples_leaf=200,
            l2_regularization=1.0,
            early_stopping=False,
            random_state=seed,
        )
    from sklearn.compose import ColumnTransformer
    from sklearn.linear_model import RidgeCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    cats = [i for i, f in enumerate(features) if f in CATEGORICAL]
    nums = [i for i, f in enumerate(features) if f not in CATEGORICAL]
    prep = ColumnTransformer(
        [
            ("kinds", OneHotEncoder(handle_unknown="ignore"), cats),
            ("numbers", StandardScaler(), nums),
        ]
    )
    return make_pipeline(prep, RidgeCV(alphas=np.logspace(-1, 3, 9)))


def _read(
    run_dir: Path, features: list[str] | None, max_hands: int | None, seed: int
) -> tuple[pd.DataFrame, list[str]]:
    manifest = store.read_manifest(run_dir)
    if not manifest.get("log_decisions"):
        raise ValueModelError(
            f"{run_dir} has no decision logs: simulate with --log-decisions (and --log-detail "
            "cards)"
        )
    files = store.shard_files(run_dir, "decisions")
    if not files:
        raise ValueModelError(f"{run_dir} has no finished chunks to fit on")
    import pyarrow.parquet as pq

    columns = pq.read_schema(files[0]).names
    feats = default_features(columns) if features is None else list(features)
    unknown = [f for f in feats if f not in columns or f in NOT_FEATURES]
    if unknown:
        raise ValueModelError(f"'{unknown[0]}' is not a feature column of {run_dir}'s decisions")
    frame = store.read_run(
        run_dir, "decisions", columns=["seed", "game", "hand", "score_us", "score_them", *feats]
    )
    if max_hands is not None:
        groups = hand_ids(frame)
        n = int(groups.max()) + 1 if len(groups) else 0
        if n > max_hands:
            keep = np.zeros(n, bool)
            keep[np.random.default_rng(seed).choice(n, max_hands, replace=False)] = True
            frame = frame[keep[groups]].reset_index(drop=True)
    return frame, feats


def fit_value(
    run_dir: str | os.PathLike,
    model: str = "gbt",
    features: list[str] | None = None,
    test_fraction: float = 0.25,
    max_hands: int | None = 50_000,
    seed: int = 0,
    save: bool = True,
    threads: int | None = None,
) -> ValueModel:
    """Fit a value model on `run_dir`'s decision rows; save it with the run (``save``).

    Parameters
    ----------
    model : "gbt" (gradient-boosted trees) or "ridge" (regularized linear).
    features : decision columns to use (default: every basic feature and every card column).
    test_fraction : share of the hands held out for the R² (split by hand).
    max_hands : fit on at most this many hands (a random sample, all rows of each); None: all.
    seed : the split, the sample and the trees' randomness.
    threads : OpenMP threads of the fit (None: all cores; 1 on a machine busy with other work,
        where spinning threads cost far more than they give).

    Returns the ValueModel; its ``card`` holds ``r2_test`` with ``r2_test_ci95`` (bootstrap
    over the test hands), ``r2_train``, the features and the row / hand counts.  Raises
    ValueModelError (a ValueError) for a run without decision logs, an unknown feature, or
    bad options.
    """
    if model not in MODELS:
        raise ValueModelError(f"model={model!r}: choose one of {', '.join(MODELS)}")
    if not 0.0 < test_fraction < 1.0:
        raise ValueModelError(
            f"test_fraction={test_fraction}: give a share strictly between 0 and 1"
        )
    root = Path(run_dir)
    frame, feats = _read(root, features, max_hands, seed)
    groups = hand_ids(frame)
    train, test = split_by_hand(groups, test_fraction, seed)
    if train.sum() == 0 or test.sum() == 0 or len(np.unique(groups[test])) < 10:
        raise ValueModelError(
            f"{root}: too few hands ({int(groups.max()) + 1}) for a held-out R²; log more hands"
        )
    x = frame[feats].to_numpy(np.float64)
    y = (frame["score_us"].to_numpy(np.int64) - frame["score_them"].to_numpy(np.int64)).astype(
        np.float64
    )
    est = _estimator(model, feats, seed)
    from threadpoolctl import threadpool_limits

    with threadpool_limits(threads):
        est.fit(x[train], y[train])
    r2, low, high = r2_by_hand_ci(y[test], est.predict(x[test]), groups[test], seed=seed)
    r2_train = r2_by_hand_ci(y[train], est.predict(x[train]), groups[train], n_boot=1)[0]
    manifest = store.read_manifest(root)
    card = {
        "target": TARGET,
        "model": model,
        "estimator": type(est).__name__
        if model == "gbt"
        else "StandardScaler+OneHotEncoder+RidgeCV",
        "features": feats,
        "r2_test": r2,
        "r2_test_ci95": [low, high],
        "r2_train": r2_train,
        "split": "by hand (seed, game, hand)",
        "test_fraction": test_fraction,
        "rows_train": int(train.sum()),
        "rows_test": int(test.sum()),
        "hands_train": int(len(np.unique(groups[train]))),
        "hands_test": int(len(np.unique(groups[test]))),
        "seed": seed,
        "run": {
            k: manifest.get(k)
            for k in ("seed", "strategies", "mode", "total", "log_decisions", "log_detail")
        },
        "rules": manifest.get("rules", {}).get("name"),
        "created": store.now_iso(),
    }
    vm = ValueModel(est, card)
    if save:
        save_value(root, vm)
    return vm


def save_value(run_dir: str | os.PathLike, vm: ValueModel) -> Path:
    """Write ``models/value.joblib`` and ``models/value.json`` into the run folder."""
    import joblib

    folder = Path(run_dir) / MODELS_DIR
    folder.mkdir(exist_ok=True)
    tmp = folder / (MODEL_FILE + ".tmp")
    joblib.dump(vm.model, tmp)
    os.replace(tmp, folder / MODEL_FILE)
    tmp = folder / (CARD_FILE + ".tmp")
    tmp.write_text(json.dumps(vm.card, indent=2) + "\n")
    os.replace(tmp, folder / CARD_FILE)
    return folder / MODEL_FILE


def load_value(run_dir: str | os.PathLike) -> ValueModel:
    """The value model saved with a run (``fit_value``); ValueModelError if there is none."""
    import joblib

    folder = Path(run_dir) / MODELS_DIR
    if not (folder / MODEL_FILE).is_file() or not (folder / CARD_FILE).is_file():
        raise ValueModelError(
            f"{run_dir} holds no value model; fit one with "
            f"reports.values.fit_value({str(run_dir)!r})"
        )
    card = json.loads((folder / CARD_FILE).read_text())
    return ValueModel(joblib.load(folder / MODEL_FILE), card)
