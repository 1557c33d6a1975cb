"""The operator console: a web application that governs the memory planes
through the suite's gRPC API only (docs/console.md)."""
