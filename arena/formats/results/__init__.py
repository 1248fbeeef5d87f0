"""What a tournament's published results draw, pure (no database, no web framework): the
knockout's bracket and its SVG, the round robin's crosstable and the Swiss's rounds grid, from
:class:`~arena.formats.results.published.Results`. A format names the section it draws
(``Format.results_section``); the platform reads the rows and the CLI could publish them too."""
