"""What users are told: an in-site list and emails (sent by a Celery task), per kind of event,
each kind switchable on the user's settings page. Other apps call ``notifications.services``."""
