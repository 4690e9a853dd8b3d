"""Scene files: hardened JSON reading, the values a file may hold, the format of each version, and safe writing."""
