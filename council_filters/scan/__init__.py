"""security-scan: the deterministic security reviewer over the added lines of a diff."""
