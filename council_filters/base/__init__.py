"""The shared base: one definition of every rule and one kit per concern.

Modules here import nothing else of the package (``tests/test_layers.py``
keeps it so) and know nothing of argv, stdio or typer:

- ``errors``   exit codes and the located error classes;
- ``jsonl``    inputs, record decoding, the writer and :func:`~.jsonl.map_records`;
- ``vocab``    the closed sets (verdicts, statuses, confidences), slot names,
  display names, fence names, advisory texts and the name/slug/date rules;
- ``bytesops`` lines, the one UTF-8-safe cut, code fences;
- ``schemas``  the shipped JSON Schemas, loaded once;
- ``safefs``   the one contained reader and the durable writes;
- ``diffs``    the one unified-diff parser and git path unquoting;
- ``pyproc``   how a Python child starts: isolated from its working directory.
"""
