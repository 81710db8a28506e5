"""``python -m skatcalc serve …``, the same as the ``skatcalc`` command."""

from skatcalc.server.cli import main

main()
