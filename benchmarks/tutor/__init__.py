"""Benchmarks of the tutor (issue 16): item calibration
(`python -m benchmarks.tutor.calibration`)."""
