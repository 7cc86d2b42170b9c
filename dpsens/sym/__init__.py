"""Symbolic sensitivities and privacy costs, with contexts mapping variables to them."""
