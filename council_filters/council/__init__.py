"""The front command's core: whose reviewer commands run, what a review scope is,
the chain of filters, and the gates.  No argv and no stdio here; the shell is
``council_filters.cli.council``."""
