"""The run: ``Run``'s engine (its states, deadlines and checks), the outcome it ends in,
and the shells over it: ``run_async``, ``run_sync``, structured output, a session's chat,
budgets' counting, a checkpointed run, the run's trace. The map of the layers:
docs/architecture.md.
"""
