"""engram: governed, honest memory for LLM agents, served as gRPC microservices."""

__version__ = "0.1.0"
