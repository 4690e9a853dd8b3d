"""What a scene becomes outside the app: JSON and CSV exports, a NumPy script, and a check against PyTorch."""
