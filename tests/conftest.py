"""Shared fixtures. Service fixtures fail (not skip) under CI=true when a service is missing."""
