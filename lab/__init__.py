"""The learner's side: agent.py (the five steps), try_it.py, the spec2code commands and the Jupyter helpers."""
