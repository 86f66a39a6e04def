"""Tournament formats, one class per file behind one interface (``base.Format``).

A format validates its options, says what the start decides (a schedule, groups), pairs or
advances each round, ranks the players, says when it is over and what the page draws. The
services run commands and the fold applies facts; neither asks which format it is beyond
``registry.get(state["format"])``. A new format is one module here defining a ``Format``
subclass with a ``name`` (the registry finds it) plus its tests.
"""
