"""The run's budget: which reviewers may start, decided before any of them does.

A pure core.  The budget is for the whole run, spent in reviewer order: each
reviewer's pack is estimated (:func:`usage.estimate_tokens`, UTF-8 bytes / 4),
and a reviewer whose estimate would take the run over ``--budget-tokens``, or
whose estimated price would take it over ``--budget-usd``, is skipped before
it starts, with the reason.  A reviewer answered from the cache costs
nothing.  The price of a pack is its estimated input tokens times the input
price the price table gives for the reviewer (by name, else by its model
family); the output a reviewer will write is not known before it runs and is
not in the estimate.  Under ``--budget-usd`` a reviewer with no price is
skipped: its cost cannot be bounded.

Price table: one ``NAME = INPUT_USD_PER_MTOK [OUTPUT_USD_PER_MTOK]`` line per
reviewer or family (US dollars per million tokens), ``#`` comments.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from council_filters.base.vocab import display_name


@dataclass(frozen=True)
class Price:
    input_per_mtok: float
    output_per_mtok: float | None = None

    def cost(self, input_tokens: int | None, output_tokens: int | None = None) -> float | None:
        """The price of a run's tokens (None when a needed price is missing)."""
        if input_tokens is None and output_tokens is None:
            return None
        total = (input_tokens or 0) * self.input_per_mtok / 1e6
        if output_tokens:
            if self.output_per_mtok is None:
                return None
            total += output_tokens * self.output_per_mtok / 1e6
        return total


def _number(word: str, source: str, lineno: int) -> float:
    try:
        value = float(word)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{source}:{lineno}: a price is a number of US dollars per million"
                         " tokens, 0 or more")
    return value


def parse_prices(text: str, source: str) -> dict[str, Price]:
    """``NAME = INPUT [OUTPUT]`` lines (US dollars per million tokens); ``#`` comments."""
    out: dict[str, Price] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, eq, value = line.partition("=")
        words = value.split()
        if not eq or not name.strip() or not 1 <= len(words) <= 2:
            raise ValueError(f"{source}:{lineno}: expected NAME = INPUT_USD_PER_MTOK"
                             " [OUTPUT_USD_PER_MTOK]")
        nums = [_number(w, source, lineno) for w in words]
        out[name.strip()] = Price(nums[0], nums[1] if len(nums) > 1 else None)
    return out


def price_for(prices: Mapping[str, Price], reviewer: str, family: str | None) -> Price | None:
    return prices.get(reviewer) or (prices.get(family) if family else None)


@dataclass(frozen=True)
class Budget:
    tokens: int | None = None
    usd: float | None = None
    prices: Mapping[str, Price] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return self.tokens is not None or self.usd is not None


@dataclass
class Ledger:
    """What the run has committed so far, in reviewer order."""

    budget: Budget
    tokens: int = 0
    usd: float = 0.0

    def admit(self, reviewer: str, family: str | None, pack_tokens: int) -> str | None:
        """Commit the reviewer's estimate and return None, or return why it is skipped."""
        b = self.budget
        name = display_name(reviewer)
        if b.tokens is not None and self.tokens + pack_tokens > b.tokens:
            left = max(0, b.tokens - self.tokens)
            return (f"{name} skipped before it started: its pack (~{pack_tokens} tokens) is over"
                    f" what is left of --budget-tokens {b.tokens} ({left} tokens)")
        cost = 0.0
        if b.usd is not None:
            price = price_for(b.prices, reviewer, family)
            if price is None:
                return (f"{name} skipped before it started: no price for it in the price table,"
                        f" so its cost cannot be held to --budget-usd {b.usd:g}")
            cost = price.cost(pack_tokens) or 0.0
            if self.usd + cost > b.usd:
                usd_left = max(0.0, b.usd - self.usd)
                return (f"{name} skipped before it started: its pack (~{pack_tokens} tokens,"
                        f" ~${cost:.4f}) is over what is left of --budget-usd {b.usd:g}"
                        f" (${usd_left:.4f})")
        self.tokens += pack_tokens
        self.usd += cost
        return None
