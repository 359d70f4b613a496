"""run-tests: the deterministic tests reviewer (run the suite, read its reports)."""
