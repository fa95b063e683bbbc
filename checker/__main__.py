"""``python -m checker`` runs the ``ruling`` command."""

from .cli import main

main(prog_name="ruling")
