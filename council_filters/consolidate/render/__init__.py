"""The output formats of council-consolidate: ``review_md`` (the code-review report),
``sarif``, ``rdjsonl``, and ``mdquote`` (untrusted text in markdown, for both reports)."""
