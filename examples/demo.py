"""The embedded example (grown into the whole council as the filters land)."""
print("council-filters demo: nothing to run yet")
