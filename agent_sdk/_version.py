"""The SDK's version, at the bottom of the layers: the MCP server of the tools names it,
and the transport (which serves the tools) must not import the package's ``__init__``."""

__all__ = ["__version__"]

__version__ = "0.1.0"
