"""The redaction engine: every credential that a reviewer's text, a diff or a
record may carry is replaced before anything is shown or stored.

Its layers, from the bottom up (a module imports only those below it):

``patterns``
    The eleven built-in patterns in the reference's order (ten credential
    shapes and the PEM block), shared by everything above.
``native``
    Loads the compiled module built from ``_machine.c`` (the C line machine
    and the SIMD prefilter scan) and runs whole descriptors on it.
``prefilter``
    Finds the candidate lines of a buffer in one scan (native, Hyperscan or
    ``re``), and decides whether a whole input may run on the compiled path.
``machine``
    The byte-faithful line machine of the default redaction
    (:class:`~council_filters.redaction.machine.Redactor`): one output line
    per input line, the PEM block state, the hook for extra rules.
``secrets``
    The extra rule sets of ``--rules`` (``extended``, gitleaks files): rules
    and allowlists, the validators, the PEM-in-every-shape machine and the
    engine that plugs them into the line machine.
``shape``
    Redaction that keeps a value's shape (``KEY = '‹redacted:rule›'``), for
    snippets and structured fields.
``shown``
    What may be shown of a line of the reviewed repository.
``records``
    Redaction of JSON Lines records, field by field.
``batch``
    Whole trees of files, resumable, on local processes or Dask, with a
    manifest (storage backends in :mod:`council_filters.base.storage`).

Nothing here imports a shell (``council_filters.cli``) or another engine.
"""
