"""Bots and their uploaded versions."""
