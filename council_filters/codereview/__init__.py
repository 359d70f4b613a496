"""The code-review flow run by the tool: six reviewers, correctors and scoped re-review.

The deterministic layers (context, security scan, test run, consolidation, the state
machine) are called as functions; the models are reached through the configured reviewer
commands.  Modules:

* :mod:`.references` -- the six reviewers' references, the finding contract and the
  correction rules (shipped as package data, overridable by the user);
* :mod:`.setup` -- the commands file's ``code-review.ORIGIN`` and ``corrector`` lines;
* :mod:`.answers` -- reading an answer as the finding contract (verify_output errors);
* :mod:`.packs` -- what each reviewer and corrector is sent;
* :mod:`.ask` -- dispatching packs, redacted, with the verify-and-re-ask loop;
* :mod:`.review` -- ``run`` and ``rereview``; :mod:`.correct` -- ``fix``;
* :mod:`.session` -- the state file and the files kept beside it.
"""
