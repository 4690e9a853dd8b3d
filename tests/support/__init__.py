"""What the tests share besides fixtures: numbers, model files, runs of the app and ways of reading it.

Tests import these modules by their full name (`from tests.support.seed_numbers import SAT`); pytest puts
the project's folder on sys.path because tests/ is a package. The conftests hold fixtures and hooks only.
Two modules here are programs, not imports: real_window_check.py and real_window_walk.py, which
tests/test_real_window.py runs in a child python on a real X server.
"""
