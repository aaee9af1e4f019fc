"""DP-SGD with fixed-size vs Poisson minibatches on a CPU-scale proxy task (numpy only).

A stand-in for the CIFAR-10 experiments of Birrell, Ebrahimi, Behnia & Pacheco 2024
(Sec. 4.3, Figures 4 bottom, 5 and 10): the 8x8 handwritten digits bundled with
scikit-learn (``sklearn.datasets.load_digits``, 1797 images, 10 classes, no download) and
a one-hidden-layer tanh network (64 -> 32 -> 10).  One step, eq. (2) of the paper:

    theta <- theta - eta / |B| * ( sum_{i in batch} Clip_C(grad_i) + N(0, C^2 sigma^2 I) )

with per-example gradients computed in closed form (no autograd) into a buffer of shape
(batch size, parameters), clipped to norm C.  The divisor is the fixed |B| for every
scheme; for Poisson sampling (rate q = |B|/|D|) it is the expected batch size, as in
Opacus.  Every run is seeded: the initialisation (``init_seed``, shared by all runs like
the paper's pretrained backbone) and the sampling/noise stream (``seed``).

What is measured:

* the batch sizes drawn (Poisson sizes are Binomial(|D|, q));
* the peak memory of the per-example gradient computation (``tracemalloc``), which is
  proportional to the batch size actually drawn: the point of Figure 5 is that a
  Poisson run must provision for its largest batch;
* test accuracy per epoch;
* the variance of the clipped minibatch gradient at a fixed parameter, against the
  closed forms of Sec. 4.1 (eq. (21)) with a_i the clipped per-example gradients.

The paper's absolute numbers (63.87% vs 61.57% CIFAR-10 accuracy, 14,826 MB vs up to
23,280 MB of GPU memory) are not comparable with this proxy; its claims are qualitative.
"""

from __future__ import annotations

import math
import tracemalloc
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from dpsym.errors import require, require_integer
from dpsym.sampling import SCHEMES, MonteCarloVariance, monte_carlo_variance, sample_batch

__all__ = [
    "Data",
    "ProxyConfig",
    "RunResult",
    "VarianceAtTheta",
    "clip_factors",
    "clip_rows",
    "gradient_variance",
    "init_params",
    "load_data",
    "per_example_gradients",
    "run_dpsgd",
    "test_accuracy",
]

_REF = "dpsym DP-SGD proxy"


@dataclass(frozen=True)
class Data:
    """Standardised digits: train/test features and integer labels."""

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray


@cache
def load_data(n_test: int = 397, split_seed: int = 0) -> Data:
    """scikit-learn's bundled digits, shuffled with ``split_seed``, ``n_test`` held out,
    pixels standardised with the training mean and standard deviation."""
    from sklearn.datasets import load_digits

    d = load_digits()
    X, y = d.data.astype(float), d.target.astype(int)
    perm = np.random.default_rng(split_seed).permutation(len(y))
    X, y = X[perm], y[perm]
    Xtr, Xte = X[n_test:], X[:n_test]
    mu, sd = Xtr.mean(axis=0), Xtr.std(axis=0)
    sd[sd < 1e-8] = 1.0  # constant border pixels
    return Data((Xtr - mu) / sd, y[n_test:], (Xte - mu) / sd, y[:n_test])


@dataclass(frozen=True)
class ProxyConfig:
    """Hyperparameters of one DP-SGD run (paper notation: sigma, C, |B|, eta)."""

    sampling: str = "fswor"
    sigma: float = 6.0
    C: float = 1.0
    batch_size: int = 64
    lr: float = 2.0
    epochs: int = 20
    hidden: int = 32
    seed: int = 0
    init_seed: int = 0
    measure_memory: bool = False

    def __post_init__(self) -> None:
        require(self.sampling in SCHEMES, "sampling", self.sampling, f"one of {SCHEMES}", _REF)
        require(self.sigma >= 0, "sigma", self.sigma, "sigma >= 0", _REF)
        require(self.C > 0, "C", self.C, "C > 0", _REF)
        require(self.lr > 0, "lr", self.lr, "lr > 0", _REF)
        require_integer("batch_size", self.batch_size, _REF, minimum=1)
        require_integer("epochs", self.epochs, _REF, minimum=1)
        require_integer("hidden", self.hidden, _REF, minimum=1)


def _shapes(d_in: int, hidden: int, k: int) -> list[tuple[int, ...]]:
    return [(d_in, hidden), (hidden,), (hidden, k), (k,)]


def n_params(d_in: int = 64, hidden: int = 32, k: int = 10) -> int:
    return sum(math.prod(s) for s in _shapes(d_in, hidden, k))


def _unflatten(theta: np.ndarray, d_in: int, hidden: int, k: int) -> list[np.ndarray]:
    out, pos = [], 0
    for s in _shapes(d_in, hidden, k):
        size = math.prod(s)
        out.append(theta[pos:pos + size].reshape(s))
        pos += size
    return out


def init_params(hidden: int = 32, seed: int = 0, d_in: int = 64, k: int = 10) -> np.ndarray:
    """Glorot-uniform weights, zero biases, flattened (seeded)."""
    rng = np.random.default_rng(seed)
    parts = []
    for s in _shapes(d_in, hidden, k):
        if len(s) == 2:
            lim = np.sqrt(6.0 / (s[0] + s[1]))
            parts.append(rng.uniform(-lim, lim, size=s).ravel())
        else:
            parts.append(np.zeros(s))
    return np.concatenate(parts)


def _forward(theta: np.ndarray, X: np.ndarray, hidden: int) -> tuple[np.ndarray, ...]:
    W1, b1, W2, b2 = _unflatten(theta, X.shape[1], hidden, 10)
    h = np.tanh(X @ W1 + b1)
    z = h @ W2 + b2
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    return h, p, W2


def class_probabilities(theta: np.ndarray, X: np.ndarray, hidden: int = 32) -> np.ndarray:
    """Softmax class probabilities of the proxy network, one row per example (b x 10)."""
    return _forward(theta, X, hidden)[1]


def per_example_gradients(theta: np.ndarray, X: np.ndarray, y: np.ndarray,
                          hidden: int = 32) -> np.ndarray:
    """Gradients of the cross-entropy of each example, one row per example (b x P).

    Backpropagation written out: with p = softmax(h W2 + b2), h = tanh(x W1 + b1) and
    e_y the one-hot label, d2 = p - e_y, grad W2 = h (x) d2, grad b2 = d2,
    d1 = (d2 W2^T) (1 - h^2), grad W1 = x (x) d1, grad b1 = d1.
    """
    b = X.shape[0]
    h, p, W2 = _forward(theta, X, hidden)
    d2 = p
    d2[np.arange(b), y] -= 1.0
    d1 = (d2 @ W2.T) * (1.0 - h * h)
    G = np.empty((b, theta.size))
    # Write each block straight into its columns of the buffer (no second copy).
    n1, n2 = X.shape[1] * hidden, hidden * d2.shape[1]  # sizes of the W1 and W2 blocks
    np.multiply(X[:, :, None], d1[:, None, :], out=G[:, :n1].reshape(b, X.shape[1], hidden))
    G[:, n1:n1 + hidden] = d1
    np.multiply(h[:, :, None], d2[:, None, :],
                out=G[:, n1 + hidden:n1 + hidden + n2].reshape(b, hidden, -1))
    G[:, n1 + hidden + n2:] = d2
    return G


def clip_factors(G: np.ndarray, C: float) -> np.ndarray:
    """1 / max(1, ||g_i||/C) per row, so that Clip(g_i) = factor_i g_i."""
    return 1.0 / np.maximum(1.0, np.sqrt(np.einsum("ij,ij->i", G, G)) / C)


def clip_rows(G: np.ndarray, C: float) -> np.ndarray:
    """Clip(x) = x / max(1, ||x||/C) row-wise (Birrell et al. 2024, Sec. 3.1)."""
    return G * clip_factors(G, C)[:, None]


def test_accuracy(theta: np.ndarray, data: Data, hidden: int = 32) -> float:
    p = class_probabilities(theta, data.X_test, hidden)
    return float(np.mean(p.argmax(axis=1) == data.y_test))


@dataclass(frozen=True)
class RunResult:
    """One DP-SGD run: per-epoch test accuracy (index 0 = before training), every batch
    size drawn, per-step peak bytes of the per-example gradient computation (empty unless
    measured), and the final parameters."""

    config: ProxyConfig
    accuracy: tuple[float, ...]
    batch_sizes: tuple[int, ...]
    peak_bytes: tuple[int, ...]
    theta: np.ndarray


def run_dpsgd(config: ProxyConfig, data: Data | None = None) -> RunResult:
    """DP-SGD (eq. (2)) for ``config.epochs`` epochs of floor(|D|/|B|) steps each."""
    data = load_data() if data is None else data
    N = len(data.y_train)
    B = config.batch_size
    require(B < N, "batch_size", B, f"batch_size < |D| = {N}", _REF)
    rng = np.random.default_rng(config.seed)
    theta = init_params(config.hidden, config.init_seed)
    acc = [test_accuracy(theta, data, config.hidden)]
    sizes: list[int] = []
    peaks: list[int] = []
    steps = N // B
    if config.measure_memory:
        # One untraced call first: numpy's one-time allocations (ufunc loop caches) would
        # otherwise make the first traced step differ from the rest.
        G = per_example_gradients(theta, data.X_train[:B], data.y_train[:B], config.hidden)
        clip_factors(G, config.C) @ G
        tracemalloc.start()
    try:
        for _ in range(config.epochs):
            for _ in range(steps):
                idx = sample_batch(config.sampling, N, B, rng)  # type: ignore[arg-type]
                sizes.append(len(idx))
                Xb, yb = data.X_train[idx], data.y_train[idx]
                if config.measure_memory:
                    tracemalloc.reset_peak()
                    base = tracemalloc.get_traced_memory()[0]
                G = per_example_gradients(theta, Xb, yb, config.hidden)
                total = clip_factors(G, config.C) @ G  # sum of clipped gradients
                if config.measure_memory:
                    peaks.append(tracemalloc.get_traced_memory()[1] - base)
                del G
                noise = rng.normal(0.0, config.sigma * config.C, size=theta.size)
                theta = theta - config.lr / B * (total + noise)
            acc.append(test_accuracy(theta, data, config.hidden))
    finally:
        if config.measure_memory:
            tracemalloc.stop()
    return RunResult(config, tuple(acc), tuple(sizes), tuple(peaks), theta)


def run_seeds(config: ProxyConfig, seeds: tuple[int, ...]) -> list[RunResult]:
    """The same configuration under several sampling/noise seeds."""
    return [run_dpsgd(replace(config, seed=s)) for s in seeds]


@dataclass(frozen=True)
class VarianceAtTheta:
    """Clipped-gradient statistics at a fixed parameter and the minibatch-mean variance.

    ``abar_sq`` = ||mean a_i||^2, ``a2bar`` = mean ||a_i||^2 over the training set;
    ``montecarlo`` holds the measured tr Cov of the minibatch mean (eq. (20)) per scheme
    next to the closed forms (21) and the ratio (22).
    """

    label: str
    abar_sq: float
    a2bar: float
    montecarlo: MonteCarloVariance


def gradient_variance(theta: np.ndarray, label: str, batch_size: int = 64, C: float = 1.0,
                      hidden: int = 32, samples: int = 1500, seed: int = 0) -> VarianceAtTheta:
    """Variance of the clipped minibatch gradient at ``theta``, measured and closed-form."""
    data = load_data()
    a = clip_rows(per_example_gradients(theta, data.X_train, data.y_train, hidden), C)
    mean = a.mean(axis=0)
    mc = monte_carlo_variance(a, batch_size, samples=samples, seed=seed)
    return VarianceAtTheta(label, float(mean @ mean), float(np.mean(np.sum(a * a, axis=1))), mc)
