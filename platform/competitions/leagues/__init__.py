"""Leagues: every bot of a game, in seasons, a round on beat's clock (or "play a round now"),
tables paired Swiss-style from the season's stored standings. Its service (``services``), its
calendar's arithmetic (``timetable``), its tables (``selectors``), its pages (``views``,
``forms``) and its endpoints (``api``). It knows nothing of tournaments (an independence
contract in pyproject.toml); what both share is the app's core (models, scheduling, tables)."""
