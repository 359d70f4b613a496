"""Thin command-line shells over the pure cores; one module per executable."""
