"""council-pack's core: ``core`` (envelope, sections, diff truncation, caps),
``gather`` (work-tree files, the review base, the changed files' excerpts) and
``git`` (the read-only git plumbing it runs)."""
