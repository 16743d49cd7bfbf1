"""Paired (common-random-number) statistics for sampled marks: two moves judged over the same sampled
futures differ by a paired difference whose noise is its standard error, far smaller than either
figure's own; a mark is earned only when the drop still crosses its threshold after taking off about
two standard errors. (War of Bones uses it; the troll's engine/analysis/paired.py does the same.)"""
from __future__ import annotations

import math
from typing import Sequence

Z = 2.0  # standard errors taken off a drop before its mark: about one false mark in 40 at a threshold


def differences(better: Sequence[float], worse: Sequence[float]) -> list[float]:
    """Sample by sample, `better` minus `worse` (the same sampled future for both)."""
    if len(better) != len(worse):
        raise ValueError("paired samples need the same number of samples")
    return [b - w for b, w in zip(better, worse)]


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def standard_error(values: Sequence[float]) -> float:
    """The standard error of the mean of `values` (0 with fewer than two)."""
    count = len(values)
    if count < 2:
        return 0.0
    centre = mean(values)
    return math.sqrt(sum((v - centre) ** 2 for v in values) / (count - 1) / count)


def beyond_noise(values: Sequence[float], z: float = Z) -> float:
    """The paired drop less `z` standard errors, never below 0: what a mark is given on."""
    return max(0.0, mean(values) - z * standard_error(values))
