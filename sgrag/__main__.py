"""`python -m sgrag ...` entry point."""
from .cli import main

raise SystemExit(main())
