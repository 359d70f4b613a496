"""council-consolidate's core: ``core`` (collect, consolidate), ``finding`` (validation,
normalisation, the finding model, source lines), ``dedup``, ``ids`` and ``origins``
(stable IDs), ``gaps``, ``synthesis`` (the council report's rules) and ``render/``
(one module per output format)."""
