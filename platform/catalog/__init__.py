"""The games the site hosts, mirrored from ``games.registry`` into the database."""
