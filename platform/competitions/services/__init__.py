"""The competitions' shared services: ``scheduling`` (a competition's matches and their links,
in one transaction), ``tables`` (what a recorded match adds to a table's line) and
``calendar`` (beat's minute: starts, spaced rounds, league rounds), with the tournaments'
``tournaments``, ``tournament_settings`` and ``timetable``. A league's service is
``competitions.leagues.services``; entries and membership are ``competitions.entries``."""
