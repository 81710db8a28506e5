"""The ``skatcalc`` command and the server it runs."""
