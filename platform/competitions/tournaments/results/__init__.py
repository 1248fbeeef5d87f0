"""A tournament's published results (issue 22, item 5): the crosstable, the knockout bracket,
the table with its tie-breaks, and their exports (docs/organisers.md, "Publishing results").
Read from the stored rows, computed once per change of the tournament (``data``)."""
