"""Writing competitions: ``tournaments`` (create, start, each round scheduled as the last one
ends), ``leagues`` (create, seasons, a round on beat's clock), ``scheduling`` (a competition's
matches and their links, in one transaction) and ``tables`` (what a recorded match adds to a
table's line)."""
