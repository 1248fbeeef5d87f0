"""Tournaments, leagues and ratings."""
