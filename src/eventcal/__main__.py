"""``python -m eventcal`` runs the command-line interface."""

from eventcal.cli import main

raise SystemExit(main())
