"""dpsens."""
