"""NoisyCGD and NoisySGD for L2-regularised multinomial logistic regression with per-example
clipping, vectorised over the examples of a batch (numpy only).

The setting of Bok, Su & Altschuler 2024, Sec. 4.4 and App. D.2 (after [YS22, Sec. 5]):

* features are clipped to norm C (x -> x min(1, C/|x|)) and a constant 1 is appended (bias);
* the model is a K x d matrix theta (K classes), logits theta x, softmax cross-entropy l;
* the per-example gradient of the unregularised loss, (softmax(theta x) - e_y) x^T, is clipped
  to Frobenius norm L/2, so two examples' gradients differ by at most L (Def. 2.10); its norm
  is |softmax(theta x) - e_y| |x| exactly (an outer product), so clipping needs no K x d
  buffer per example and the clipped batch sum is one matrix product;
* one step: theta <- theta - eta (g + lambda theta + sigma xi), g the mean clipped gradient of
  the batch, xi ~ N(0, I_{K x d}) (the update (2.1) with the regulariser's gradient added);
* NoisyCGD cycles through the fixed partition into l = n/b consecutive batches, in order;
  NoisySGD draws b examples without replacement at every step, l steps per epoch;
* theta_0 ~ Unif[0, 1)^{K x d} / sqrt(K d) (``init_seed``); every run is seeded.

Data: MNIST from local IDX files when a directory is given (argument, or the environment
variable ``DPSYM_MNIST_DIR``; ``train-images-idx3-ubyte`` etc., optionally ``.gz``); otherwise
the 8x8 digits bundled with scikit-learn.  Nothing is downloaded.  Pixels are scaled to
[0, 1].

With features of norm <= C plus the bias, the cross-entropy is M-smooth with M <= (C^2 + 1)/2
(the softmax Jacobian has norm <= 1/2), and lambda-strongly convex with the regulariser.  The
privacy theorems assume gradients of such losses; the clipped gradient is a gradient only
where no clipping happens, which the paper (and [YS22]) take as given.  :func:`smoothness`
states the constant.
"""

from __future__ import annotations

import gzip
import os
import struct
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from dpsym.errors import require, require_integer

__all__ = [
    "MNIST_ENV",
    "Dataset",
    "TrainingConfig",
    "TrainingResult",
    "accuracy",
    "clipped_gradient_sum",
    "load_dataset",
    "load_digits_dataset",
    "load_mnist_idx",
    "prepare_features",
    "smoothness",
    "train",
    "train_runs",
]

_REF = "Bok et al. 2024, App. D.2 (private training)"
MNIST_ENV = "DPSYM_MNIST_DIR"
_MNIST_FILES = {"X_train": "train-images-idx3-ubyte", "y_train": "train-labels-idx1-ubyte",
                "X_test": "t10k-images-idx3-ubyte", "y_test": "t10k-labels-idx1-ubyte"}


@dataclass(frozen=True)
class Dataset:
    """Features (rows, pixels in [0, 1]) and integer labels; ``name`` says which data."""

    name: str
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray

    @property
    def n(self) -> int:
        return int(self.y_train.size)


def _read_idx(path: Path) -> np.ndarray:
    """An IDX file (LeCun's MNIST format): magic 0x00000801 (labels) or 0x00000803 (images)."""
    candidates = [path, path.with_name(path.name + ".gz")]
    found = next((p for p in candidates if p.exists()), None)
    require(found is not None, "mnist_dir", str(path.parent),
            f"a directory holding {path.name} (or {path.name}.gz)", _REF)
    opener = gzip.open if found.suffix == ".gz" else open
    with opener(found, "rb") as fh:
        raw = fh.read()
    zero, dtype, ndim = struct.unpack(">HBB", raw[:4])
    require(zero == 0 and dtype == 0x08, "file", str(found), "an IDX file of unsigned bytes",
            _REF)
    dims = struct.unpack(">" + "I" * ndim, raw[4:4 + 4 * ndim])
    data = np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim)
    require(data.size == int(np.prod(dims)), "file", str(found), "the size its header states",
            _REF)
    return data.reshape(dims)


@cache
def load_mnist_idx(directory: str) -> Dataset:
    """MNIST (60000 train, 10000 test) from the four IDX files in ``directory``."""
    d = Path(directory)
    parts = {k: _read_idx(d / v) for k, v in _MNIST_FILES.items()}
    flat = {k: (v.reshape(v.shape[0], -1).astype(float) / 255.0 if k.startswith("X")
                else v.astype(int)) for k, v in parts.items()}
    return Dataset(f"MNIST ({d})", flat["X_train"], flat["y_train"], flat["X_test"],
                   flat["y_test"])


@cache
def load_digits_dataset(n_test: int = 297, split_seed: int = 0) -> Dataset:
    """scikit-learn's bundled 8x8 digits (1797 images), shuffled with ``split_seed``, ``n_test``
    held out (default: 1500 training examples), pixels scaled from [0, 16] to [0, 1]."""
    from sklearn.datasets import load_digits

    d = load_digits()
    X, y = d.data.astype(float) / 16.0, d.target.astype(int)
    perm = np.random.default_rng(split_seed).permutation(len(y))
    X, y = X[perm], y[perm]
    return Dataset("scikit-learn digits", X[n_test:], y[n_test:], X[:n_test], y[:n_test])


def load_dataset(mnist_dir: str | None = None) -> Dataset:
    """MNIST if ``mnist_dir`` (or ``$DPSYM_MNIST_DIR``) is set, else the digits."""
    directory = mnist_dir or os.environ.get(MNIST_ENV)
    return load_mnist_idx(directory) if directory else load_digits_dataset()


def prepare_features(X: np.ndarray, C: float) -> np.ndarray:
    """Clip each row to norm C and append the constant feature 1 (App. D.2)."""
    require(C > 0, "C", C, "C > 0", _REF)
    norms = np.sqrt(np.einsum("ij,ij->i", X, X))
    out = np.empty((X.shape[0], X.shape[1] + 1))
    np.multiply(X, np.minimum(1.0, C / np.maximum(norms, 1e-300))[:, None], out=out[:, :-1])
    out[:, -1] = 1.0
    return out


def smoothness(C: float, lam: float) -> float:
    """An upper bound M = (C^2 + 1)/2 + lambda on the smoothness of the regularised loss with
    features of norm <= C plus the bias feature (softmax Jacobian norm <= 1/2)."""
    return (C * C + 1) / 2 + lam


def _softmax(Z: np.ndarray) -> np.ndarray:
    Z = Z - Z.max(axis=-1, keepdims=True)
    np.exp(Z, out=Z)
    Z /= Z.sum(axis=-1, keepdims=True)
    return Z


def clipped_gradient_sum(theta: np.ndarray, X: np.ndarray, y: np.ndarray, clip: float,
                         x_norms: np.ndarray | None = None) -> np.ndarray:
    """sum_i Clip_{clip}((softmax(theta x_i) - e_{y_i}) x_i^T), Clip to Frobenius norm ``clip``.

    The per-example norm is |softmax - e_y| |x_i| (outer product), so the sum is
    ((P - Y) * factor)^T X with factor_i = min(1, clip / norm_i): no per-example buffer.
    Several runs at once: ``theta`` of shape (R, K, d) with one batch X (b, d) shared by the
    runs (NoisyCGD: two matrix products for all runs), or one batch per run, X (R, b, d),
    y (R, b) (NoisySGD: batched products).  Returns (K, d) or (R, K, d).
    """
    if x_norms is None:
        x_norms = np.sqrt(np.einsum("...i,...i->...", X, X))
    shared = theta.ndim == 3 and X.ndim == 2
    if shared:
        R, K, d = theta.shape
        P = _softmax((X @ theta.reshape(R * K, d).T).reshape(X.shape[0], R, K))
        rows = np.arange(X.shape[0])
        P[rows, :, y] -= 1.0
        norms = np.sqrt(np.einsum("brk,brk->br", P, P)) * x_norms[:, None]
        P *= np.minimum(1.0, clip / np.maximum(norms, 1e-300))[..., None]
        return (P.reshape(X.shape[0], R * K).T @ X).reshape(R, K, d)
    P = _softmax(X @ np.swapaxes(theta, -1, -2))
    np.put_along_axis(P, y[..., None], np.take_along_axis(P, y[..., None], -1) - 1.0, -1)
    norms = np.sqrt(np.einsum("...k,...k->...", P, P)) * x_norms
    P *= np.minimum(1.0, clip / np.maximum(norms, 1e-300))[..., None]
    if X.ndim == 3:
        return np.einsum("rbk,rbd->rkd", P, X, optimize=True)
    return P.T @ X


def accuracy(theta: np.ndarray, X: np.ndarray, y: np.ndarray) -> float:
    """Fraction of rows whose largest logit is the label."""
    return float(np.mean(np.argmax(X @ theta.T, axis=1) == y))


@dataclass(frozen=True)
class TrainingConfig:
    """One run (the paper's symbols): ``algorithm`` "NoisyCGD" or "NoisySGD", batch size b,
    step size eta, noise sigma, sensitivity L (clip at L/2), feature norm C, regulariser
    lam (lambda), ``epochs``; seeds for the noise/sampling stream and the initialisation."""

    algorithm: str = "NoisyCGD"
    b: int = 100
    eta: float = 0.2
    sigma: float = 0.1
    L: float = 2.0
    C: float = 4.0
    lam: float = 0.01
    epochs: int = 20
    seed: int = 0
    init_seed: int = 1

    def __post_init__(self) -> None:
        require(self.algorithm in ("NoisyCGD", "NoisySGD"), "algorithm", self.algorithm,
                "'NoisyCGD' or 'NoisySGD'", _REF)
        require_integer("b", self.b, _REF, minimum=1)
        require_integer("epochs", self.epochs, _REF, minimum=0)
        for name in ("eta", "L", "C"):
            require(getattr(self, name) > 0, name, getattr(self, name), f"{name} > 0", _REF)
        require(self.sigma >= 0, "sigma", self.sigma, "sigma >= 0", _REF)
        require(self.lam >= 0, "lam", self.lam, "lambda >= 0", _REF)


@dataclass(frozen=True)
class TrainingResult:
    """Training and test accuracy after each recorded epoch (``epochs[i]``), and the time."""

    config: TrainingConfig
    epochs: tuple[int, ...]
    train_accuracy: tuple[float, ...]
    test_accuracy: tuple[float, ...]
    seconds: float


def train(config: TrainingConfig, data: Dataset, record: tuple[int, ...] | None = None
          ) -> TrainingResult:
    """Run NoisyCGD or NoisySGD for ``config.epochs`` epochs (l = floor(n/b) steps each) and
    record the accuracies after the epochs in ``record`` (default: the last)."""
    return train_runs(config, data, (config.seed,), record)[0]


def train_runs(config: TrainingConfig, data: Dataset, seeds: tuple[int, ...],
               record: tuple[int, ...] | None = None) -> list[TrainingResult]:
    """The same configuration under several noise/sampling seeds, run together (vectorised
    over the runs as well as the examples).  Run ``s`` draws its batches and noise from its
    own generator seeded with ``s``, so its result does not depend on the other runs; the
    initialisation is shared, as in the paper's script."""
    from dataclasses import replace

    start = time.perf_counter()
    require(len(seeds) >= 1, "seeds", seeds, "at least one seed", _REF)
    Xtr = prepare_features(data.X_train, config.C)
    Xte = prepare_features(data.X_test, config.C)
    norms = np.sqrt(np.einsum("ij,ij->i", Xtr, Xtr))
    n, d = Xtr.shape
    K = int(max(data.y_train.max(), data.y_test.max())) + 1
    b = config.b
    require(b <= n, "b", b, f"b <= n = {n}", _REF)
    l = n // b
    record = (config.epochs,) if record is None else tuple(sorted(set(record)))
    require(all(0 <= e <= config.epochs for e in record), "record", record,
            f"epochs in [0, {config.epochs}]", _REF)
    R = len(seeds)
    theta0 = np.random.default_rng(config.init_seed).random((K, d)) / np.sqrt(K * d)
    theta = np.repeat(theta0[None], R, axis=0)
    rngs = [np.random.default_rng(s) for s in seeds]
    clip, eta, lam, sigma = config.L / 2, config.eta, config.lam, config.sigma
    buf = np.empty((R, b, d)) if config.algorithm == "NoisySGD" else None
    tr: list[np.ndarray] = []
    te: list[np.ndarray] = []

    def acc(X: np.ndarray, y: np.ndarray) -> np.ndarray:
        logits = X @ theta.reshape(R * K, d).T
        return np.mean(np.argmax(logits.reshape(-1, R, K), axis=2) == y[:, None], axis=0)

    def log(e: int) -> None:
        if e in record:
            tr.append(acc(Xtr, data.y_train))
            te.append(acc(Xte, data.y_test))

    log(0)
    for epoch in range(1, config.epochs + 1):
        for j in range(l):
            if config.algorithm == "NoisyCGD":
                sl = slice(j * b, (j + 1) * b)
                Xb, yb, nb = Xtr[sl], data.y_train[sl], norms[sl]
            else:
                idx = np.stack([g.choice(n, size=b, replace=False) for g in rngs])
                Xb = np.take(Xtr, idx, axis=0, out=buf)   # reused buffer: no page faults
                yb, nb = data.y_train[idx], norms[idx]
            grad = clipped_gradient_sum(theta, Xb, yb, clip, nb) / b
            if sigma > 0:
                noise = np.stack([g.standard_normal((K, d)) for g in rngs])
                theta = theta - eta * (grad + lam * theta + sigma * noise)
            else:
                theta = theta - eta * (grad + lam * theta)
        log(epoch)
    secs = time.perf_counter() - start
    return [TrainingResult(replace(config, seed=s), record, tuple(float(a[r]) for a in tr),
                           tuple(float(a[r]) for a in te), secs)
            for r, s in enumerate(seeds)]
