"""The tournament domain of competitions: a fixed field of bot versions played in a format of
``arena.formats`` (``services``), its settings (``settings``, ``settings_form``), its API and
its published results (``results``, ``results_views``). Leagues know nothing of it."""
