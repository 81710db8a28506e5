"""The web edge: blueprints by feature, and http, caching, errors, i18n beside them."""
