"""Report values and their output formats."""
