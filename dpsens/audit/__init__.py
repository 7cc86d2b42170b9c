"""Empirical checks of reported sensitivities on random and adversarial neighbouring inputs."""
