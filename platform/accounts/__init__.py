"""Sign-up, log-in and log-out pages (Django's auth views plus a sign-up form)."""
