"""council-filters: the deterministic half of an LLM review council, as Unix filters."""

__version__ = "0.1.0"
