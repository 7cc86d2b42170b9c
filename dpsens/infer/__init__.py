"""Inference: one compositional pass per function yielding types and contexts."""
