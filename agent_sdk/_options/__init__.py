"""The options and the invocation: :class:`AgentOptions` (public in ``agent_sdk.options``),
its value checks, and what a run's options become for the CLI: its argv, stdin and
environment, and the secrets a run must never show. The map of the layers:
docs/architecture.md.
"""
