"""The Django project of Meeple Arena, and only its top: settings, the root URL map, the WSGI
entry, and the Celery app configured from the settings. No app imports it (the apps share
``foundation``); the apps' tasks are ``shared_task``s, bound to this Celery app, which is loaded
here so that every process that loads the settings sends tasks through it."""

from meeple.celery import app as celery_app

__all__ = ["celery_app"]
