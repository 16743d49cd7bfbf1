"""`python -m dicehall`: the `dicehall` command."""
import sys

from dicehall.cli import main

if __name__ == "__main__":  # not when a tool walks the package's modules
    sys.exit(main())
