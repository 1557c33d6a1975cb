"""The engram command line."""
