"""collect-context: what is being reviewed, against which spec, on which stack.

``stack`` detects package roots, languages, package managers and test
commands from a file listing; ``specs`` finds the spec folder and reads the
codebase docs; ``collect`` puts the context object together from git facts.
"""
