"""council-state's core: ``machine`` (the review state machine, pure over a dict) and
``store`` (the state file: validate, lock, write atomically)."""
