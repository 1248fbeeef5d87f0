"""Who may see what is private: an audience is a set of users (members, and the organisers who
manage it). A private competition has one; its matches carry it, so every list of matches can
hide them with one condition and no app needs to know competitions to do so."""
