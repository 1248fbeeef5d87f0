"""The site's public pages: home, games."""
