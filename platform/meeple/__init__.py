"""The Django project of Meeple Arena, and only its top: settings, the root URL map, the WSGI
entry, and the Celery app configured from the settings (loaded when Django is set up:
``meeple.apps``). No app imports it (the apps share ``foundation``); the apps' tasks are
``shared_task``s, bound to this Celery app."""
